package ledger

import (
	"testing"
	"time"
)

// SetLazyWait makes the ledgers started from now on in the test wait d
// before committing step counters alone.
func SetLazyWait(t testing.TB, d time.Duration) {
	old := lazyWait
	lazyWait = d
	t.Cleanup(func() { lazyWait = old })
}

package daemontest

import (
	"testing"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// Store opens the store of a stopped daemon's data dir, closed by
// t.Cleanup, to check what it kept.
func Store(t testing.TB, dir string) *ledger.Store {
	t.Helper()
	st, err := ledger.Open(ledger.Path(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// Refusals is the air-gap refusal record a stopped daemon kept in dir.
func Refusals(t testing.TB, dir string) []ledger.Refusal {
	t.Helper()
	list, err := Store(t, dir).Refusals()
	if err != nil {
		t.Fatal(err)
	}
	return list
}

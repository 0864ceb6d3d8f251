package slowlink_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// A throttled TCP link knows nothing of what crosses it.
func TestSlowlinkImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "internal/slowlink", map[string]string{})
}

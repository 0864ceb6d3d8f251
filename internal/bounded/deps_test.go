package bounded_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// A deadline context knows nothing of who waits on it.
func TestBoundedImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "internal/bounded", map[string]string{})
}

package limit_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Counting failed sign-ins needs nothing of buddi's.
func TestLimitImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "ui/limit", map[string]string{})
}

package handwire_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The hand socket's wire is a leaf: the contract refers to it, so it may
// refer to nothing of buddi's.
func TestHandwireImportsNothingOfOurs(t *testing.T) {
	deptest.Only(t, "messages/handwire", map[string]string{})
}

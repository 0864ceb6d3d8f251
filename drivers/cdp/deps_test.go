package cdp_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The DevTools commands are the browser's vocabulary: nothing of buddi's.
func TestCDPImportsNothingOfOurs(t *testing.T) {
	deptest.Only(t, "drivers/cdp", map[string]string{})
}

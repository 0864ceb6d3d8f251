package helper_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The helper's serving loop, shared by the platforms.
func TestHelperImportsOnlyTheProtocol(t *testing.T) {
	deptest.Only(t, "native/helper", map[string]string{
		"native/protocol": "it serves the protocol",
	})
}

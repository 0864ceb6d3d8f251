package macos_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The macOS helper's platform.
func TestMacOSImportsOnlyTheHelperAndTheProtocol(t *testing.T) {
	deptest.Only(t, "native/macos", map[string]string{
		"native/helper":   "it is a platform of the helper",
		"native/protocol": "it answers in the protocol",
	})
}

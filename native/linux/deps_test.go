package linux_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The Linux helper's platform.
func TestLinuxImportsOnlyTheHelperAndTheProtocol(t *testing.T) {
	deptest.Only(t, "native/linux", map[string]string{
		"native/helper":   "it is a platform of the helper",
		"native/protocol": "it answers in the protocol",
	})
}

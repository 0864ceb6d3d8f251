package native_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Use my apps is a driver over the helper's protocol.
func TestNativeImportsOnlyDriversAndItsProtocol(t *testing.T) {
	deptest.Only(t, "drivers/native", map[string]string{
		"drivers":         "it implements the driver and mode interfaces",
		"messages":        "the contract: answers, codes, events and the messages it takes",
		"native/protocol": "it speaks to the helper",
	})
}

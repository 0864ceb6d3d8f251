package extension_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Your browser is a driver over the extension's wire.
func TestExtensionDriverImportsOnlyDriversAndTheEngine(t *testing.T) {
	deptest.Only(t, "drivers/extension", map[string]string{
		"drivers":           "it implements the driver and mode interfaces",
		"drivers/cdp":       "the DevTools commands it sends through the extension's debugger, typed",
		"drivers/walker":    "it runs the page engine in the owner's tabs",
		"messages":          "the extension's wire and the contract's codes",
		"messages/extwire":  "the extension's wire limits and the command methods it may send",
		"messages/handwire": "a pinned page takes the hand socket's input",
	})
}

package playwright_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The agents' own browser is a driver and a mode.
func TestPlaywrightImportsOnlyDriversTheEngineAndEgress(t *testing.T) {
	deptest.Only(t, "drivers/playwright", map[string]string{
		"drivers":           "it implements the driver and mode interfaces",
		"drivers/cdp":       "the DevTools commands it sends on its CDP sessions, typed",
		"drivers/walker":    "it runs the page engine",
		"egress":            "its launch flags and address checks are egress's",
		"messages":          "the contract: answers, codes, events and the messages it takes",
		"messages/handwire": "a pinned page takes the hand socket's input",
	})
}

package drivers_test

import (
	"slices"
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

func TestDriversImportNoActor(t *testing.T) {
	for _, pkg := range []string{"drivers", "drivers/sim", "drivers/playwright", "drivers/native", "drivers/drivertest", "drivers/extension", "drivers/walker", "drivers/cdp"} {
		deptest.Check(t, deptest.Module+"/"+pkg, map[string]string{
			deptest.Module + "/actors": "drivers act on pages; actors drive them, never the other way",
			deptest.Module + "/ui":     "drivers know nothing of the surfaces",
		})
	}
}

// The sim driver is chosen in one place: where the daemon builds the mode
// from the configuration, and by the load harness. Nothing else in
// production code (tests aside) may import it, so no production path
// treats the simulation specially.
func TestOnlyTheModeChoiceImportsTheSim(t *testing.T) {
	allowed := []string{deptest.Module + "/daemon", deptest.Module + "/loadtest"}
	for _, pkg := range deptest.Importers(t, deptest.Module+"/drivers/sim") {
		if !slices.Contains(allowed, pkg) {
			t.Errorf("%s imports drivers/sim; only the mode choice may (%v)", pkg, allowed)
		}
	}
}

// The driver interfaces are what sessions drive and modes open.
func TestDriversImportOnlyTheContract(t *testing.T) {
	deptest.Only(t, "drivers", map[string]string{
		"messages":          "observations, codes and the action table are the contract's",
		"messages/handwire": "a pinned page takes the hand socket's input",
	})
}

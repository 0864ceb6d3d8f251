package extension_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The extension package holds files and ids; the doctor, the daemon and the connection read them.
func TestExtensionImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "extension", map[string]string{})
}

// The extension package is a leaf: the doctor, the daemon and the actor
// read its ids and record.
func TestExtensionPackageIsALeaf(t *testing.T) {
	deptest.Check(t, deptest.Module+"/extension", map[string]string{
		deptest.Module + "/actors":   "the extension package holds files and ids, no actor",
		deptest.Module + "/ui":       "the extension package knows no surface",
		deptest.Module + "/messages": "the extension package needs not even the contract",
		deptest.Module + "/daemon":   "the daemon imports the extension package, not the other way",
	})
}

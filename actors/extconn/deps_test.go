package extconn_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The connection speaks the contract and keeps its record; it drives no
// browser itself (drivers/extension will, through Send) and knows no surface.
func TestExtconnKnowsNoDriverOrSurface(t *testing.T) {
	deptest.Check(t, deptest.Module+"/actors/extconn", map[string]string{
		deptest.Module + "/drivers": "the connection carries commands; the driver decides them",
		deptest.Module + "/ui":      "the connection knows no surface; the socket reaches it through the contract",
		deptest.Module + "/daemon":  "the daemon wires the connection, not the other way",
		deptest.Module + "/egress":  "the connection has no URL policy",
	})
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

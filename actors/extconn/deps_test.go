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

// The connection of Your browser's extension carries commands; the driver decides them.
func TestExtconnImportsOnlyTheRuntimeTheExtensionAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/extconn", map[string]string{
		"actors":           "the actor runtime",
		"extension":        "the extension's ids and record",
		"messages":         "the extension's wire",
		"messages/extwire": "the extension socket's messages, which it speaks",
		"secret":           "pairing codes and keys",
	})
}

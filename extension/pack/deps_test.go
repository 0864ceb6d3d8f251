package main_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Packing the store upload needs only the extension's files.
func TestPackImportsOnlyTheExtension(t *testing.T) {
	deptest.Only(t, "extension/pack", map[string]string{
		"extension": "it packs the extension's files",
	})
}

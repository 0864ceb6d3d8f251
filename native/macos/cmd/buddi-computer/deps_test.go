package main_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The macOS helper's executable.
func TestTheMacOSHelperCommandImportsOnlyTheHelper(t *testing.T) {
	deptest.Only(t, "native/macos/cmd/buddi-computer", map[string]string{
		"native/helper": "it serves the helper",
		"native/macos":  "on the macOS platform",
	})
}

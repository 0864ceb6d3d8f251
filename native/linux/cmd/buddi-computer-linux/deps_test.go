package main_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The Linux helper's executable.
func TestTheLinuxHelperCommandImportsOnlyTheHelper(t *testing.T) {
	deptest.Only(t, "native/linux/cmd/buddi-computer-linux", map[string]string{
		"native/helper": "it serves the helper",
		"native/linux":  "on the Linux platform",
	})
}

package main_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// go generate runs the bundler, nothing more.
func TestGenImportsOnlyTheBundler(t *testing.T) {
	deptest.Only(t, "ui/web/gen", map[string]string{
		"ui/web/bundle": "it is the bundler's command",
	})
}

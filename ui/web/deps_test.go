package web_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The dashboard is embedded files; the HTTP surface serves them.
func TestWebImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "ui/web", map[string]string{})
}

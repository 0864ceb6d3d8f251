package bundle_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The bundler turns src/ into dist/ and knows nothing else.
func TestBundleImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "ui/web/bundle", map[string]string{})
}

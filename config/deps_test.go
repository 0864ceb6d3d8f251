package config_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The configuration is read in one place and handed to everything.
func TestConfigImportsOnlyEgress(t *testing.T) {
	deptest.Only(t, "config", map[string]string{
		"egress": "the egress settings are read with the rest",
	})
}

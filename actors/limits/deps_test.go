package limits_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Per-agent rate and size limits are plain counters the controller and sessions share.
func TestLimitsImportNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "actors/limits", map[string]string{})
}

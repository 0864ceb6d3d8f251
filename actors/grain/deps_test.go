package grain_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The grain runs what its Conversation says; what a call means is the member's (cluster/member).
func TestGrainImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "actors/grain", map[string]string{})
}

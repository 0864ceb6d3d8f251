package messages_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The contract is the floor everything stands on: of buddi's packages it
// depends only on its own wire formats, which depend on nothing of ours.
func TestMessagesImportsNothingOfOurs(t *testing.T) {
	for _, dep := range deptest.Deps(t, deptest.Module+"/messages") {
		if dep != deptest.Module+"/messages" && strings.HasPrefix(dep, deptest.Module+"/") && !strings.HasPrefix(dep, deptest.Module+"/messages/") {
			t.Errorf("messages depends on %s: the contract imports nothing of ours but its wire formats", dep)
		}
	}
}

func TestMessagesImportsOnlyItsWireFormats(t *testing.T) {
	deptest.Only(t, "messages", map[string]string{
		"messages/handwire": "a hand link takes the hand socket's decoded input",
	})
}

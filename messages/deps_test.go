package messages_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

func TestMessagesImportsNothingOfOurs(t *testing.T) {
	deptest.Check(t, deptest.Module+"/messages", map[string]string{
		deptest.Module + "/": "the contract imports nothing of ours",
	})
}

// The contract is the floor everything stands on.
func TestMessagesImportsNoPackageOfBuddis(t *testing.T) {
	deptest.Only(t, "messages", map[string]string{})
}

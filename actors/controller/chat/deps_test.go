package chat_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The Telegram chat and its bound conversations, a tested part of the controller.
func TestChatImportsOnlyTheLedgerAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/controller/chat", map[string]string{
		"actors/ledger": "its records are the ledger's",
		"messages":      "the contract: answers, codes, events and the messages it takes",
	})
}

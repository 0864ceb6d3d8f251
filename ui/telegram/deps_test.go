package telegram_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The Telegram surface.
func TestTelegramImportsOnlyTheBusTheContractAndTheLimiter(t *testing.T) {
	deptest.Only(t, "ui/telegram", map[string]string{
		"events":   "it follows the actors' events",
		"messages": "the contract: answers, codes, events and the messages it takes",
		"ui/limit": "pairing codes count against the sign-in limiter",
	})
}

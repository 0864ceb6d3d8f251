package gateway_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// What the surfaces call: messages to actors, and subscriptions.
func TestGatewayImportsOnlyTheTableTheBusAndTheContract(t *testing.T) {
	deptest.Only(t, "actors/gateway", map[string]string{
		"actors/routes": "the hot path reads the routing table",
		"events":        "subscriptions are the bus's",
		"messages":      "the contract: answers, codes, events and the messages it takes",
	})
}

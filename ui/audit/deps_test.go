package audit_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The trail sees the contract and the bus's types, nothing of the actors.
func TestAuditImportsOnlyTheContract(t *testing.T) {
	deptest.Only(t, "ui/audit", map[string]string{
		"events":   "the actors' client it wraps hands out subscriptions",
		"messages": "the contract: calls, controls, answers and the trail's lines",
	})
}

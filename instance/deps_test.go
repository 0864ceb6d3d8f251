package instance_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The data directory's lock, serve.json and the owner token.
func TestInstanceImportsOnlyTheLedgerAndSecrets(t *testing.T) {
	deptest.Only(t, "instance", map[string]string{
		"actors/ledger": "the owner token's hash is a ledger record",
		"secret":        "the token is made and hashed there",
	})
}

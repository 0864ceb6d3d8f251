package secret_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Tokens are made and hashed below everything that holds one; the owner's
// secrets answer in the contract's own errors and shapes.
func TestSecretImportsOnlyTheContract(t *testing.T) {
	deptest.Only(t, "secret", map[string]string{
		"messages": "a vault's refusals are the contract's coded errors, its lists the contract's SecretInfo",
	})
}

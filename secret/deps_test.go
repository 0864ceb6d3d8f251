package secret_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Tokens are made and hashed below everything that holds one.
func TestSecretImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "secret", map[string]string{})
}

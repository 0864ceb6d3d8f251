package netns_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// The browser's network namespace is plain Linux plumbing under egress.
func TestNetnsImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "egress/netns", map[string]string{})
}

package origin_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// Host and Origin checks are pure functions the surfaces share.
func TestOriginImportsNothingOfBuddis(t *testing.T) {
	deptest.Only(t, "ui/origin", map[string]string{})
}

package metrics_test

import (
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

func TestMetricsImportNothingOfBuddis(t *testing.T) {
	deptest.Check(t, deptest.Module+"/metrics", map[string]string{
		deptest.Module + "/": "every part feeds metrics, so it depends on none of them",
	})
}

// Every part feeds metrics.
func TestMetricsImportNoPackageOfBuddis(t *testing.T) {
	deptest.Only(t, "metrics", map[string]string{})
}

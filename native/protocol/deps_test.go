package protocol_test

import (
	"github.com/buddi-dev/buddi/internal/deptest"

	"os/exec"
	"strings"
	"testing"
)

// TestImportsNothingElseOfBuddi keeps the protocol importable by drivers and
// helpers alike, and the helpers free of the daemon's packages.
func TestImportsNothingElseOfBuddi(t *testing.T) {
	allowed := map[string][]string{
		"github.com/buddi-dev/buddi/native/protocol": {"github.com/buddi-dev/buddi/native/protocol"},
		"github.com/buddi-dev/buddi/native/...":      {"github.com/buddi-dev/buddi/native/"},
	}
	for pkg, prefixes := range allowed {
		out, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if !strings.HasPrefix(dep, "github.com/buddi-dev/buddi") {
				continue
			}
			ok := false
			for _, p := range prefixes {
				ok = ok || strings.HasPrefix(dep, p)
			}
			if !ok {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}

// The helper protocol is shared by the driver and the helpers.
func TestProtocolImportsNoPackageOfBuddis(t *testing.T) {
	deptest.Only(t, "native/protocol", map[string]string{})
}

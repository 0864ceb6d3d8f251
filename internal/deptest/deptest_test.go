package deptest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/internal/deptest"
)

// helper reports whether pkg is a test helper or a test suite, not a
// production package: a package named …test (but loadtest, which buddi
// ships), and the end-to-end suites.
func helper(pkg string) bool {
	rel := strings.TrimPrefix(pkg, deptest.Module+"/")
	base := filepath.Base(rel)
	return rel == "e2e" || strings.HasPrefix(rel, "e2e/") || strings.HasSuffix(base, "test") && base != "loadtest"
}

// Every production package states, in its own deps_test.go, which of
// buddi's packages it may import and why (deptest.Only).
func TestEveryProductionPackageHasADependencyTest(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{if .GoFiles}}{{.ImportPath}} {{.Dir}}{{end}}", deptest.Module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, dir, _ := strings.Cut(line, " ")
		if helper(pkg) {
			continue
		}
		checked++
		src, err := os.ReadFile(filepath.Join(dir, "deps_test.go"))
		if err != nil || !strings.Contains(string(src), "deptest.Only(t, \""+strings.TrimPrefix(pkg, deptest.Module+"/")+"\"") {
			t.Errorf("%s has no deps_test.go saying, with deptest.Only, what it may import and why", pkg)
		}
	}
	if checked < 50 {
		t.Errorf("only %d production packages were found; the list checked the wrong thing", checked)
	}
}

// Package deptest checks what a package depends on, in the way of
// tailscale's tstest/deptest: every production package's deps_test.go
// states which of buddi's packages it may import, each with the reason
// (Only), and some also which imports it must never have, directly or
// through others (Check); go list says what it has. Test files are not
// counted: they may import what they like.
package deptest

import (
	"os/exec"
	"strings"
	"testing"
)

// Module is buddi's module path.
const Module = "github.com/buddi-dev/buddi"

// Deps lists what pkg depends on (its non-test imports, transitively).
func Deps(t testing.TB, pkg string) []string {
	t.Helper()
	return list(t, "-deps", "-f", "{{.ImportPath}}", pkg)
}

// Check fails t for every dependency of pkg that starts with one of the
// banned prefixes; each maps to the rule it breaks.
func Check(t *testing.T, pkg string, banned map[string]string) {
	t.Helper()
	for _, dep := range Deps(t, pkg) {
		if dep == pkg {
			continue
		}
		for prefix, rule := range banned {
			if dep == prefix || strings.HasPrefix(dep, prefix+"/") || strings.HasSuffix(prefix, "/") && strings.HasPrefix(dep, prefix) {
				t.Errorf("%s depends on %s: %s", pkg, dep, rule)
			}
		}
	}
}

// Only fails t for every package of buddi's that pkg imports directly
// (tests not counted) and allowed does not name: allowed maps each package
// pkg may import, as a path inside the module ("actors/ledger"), to why it
// may.
func Only(t *testing.T, pkg string, allowed map[string]string) {
	t.Helper()
	for _, imp := range list(t, "-f", `{{join .Imports "\n"}}`, Module+"/"+pkg) {
		rel, ours := strings.CutPrefix(imp, Module+"/")
		if !ours {
			continue
		}
		if _, ok := allowed[rel]; !ok {
			t.Errorf("%s imports %s, which its dependency test does not allow; if it must, say why there", pkg, rel)
		}
	}
}

// Importers lists the packages of the module that import pkg directly,
// tests not counted.
func Importers(t testing.TB, pkg string) []string {
	t.Helper()
	var out []string
	for _, line := range list(t, "-f", "{{.ImportPath}} {{join .Imports \" \"}}", Module+"/...") {
		fields := strings.Fields(line)
		for _, imp := range fields[1:] {
			if imp == pkg {
				out = append(out, fields[0])
			}
		}
	}
	return out
}

func list(t testing.TB, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, out)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

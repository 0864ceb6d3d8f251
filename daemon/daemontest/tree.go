package daemontest

import (
	"regexp"
	"testing"
)

var lineRef = regexp.MustCompile(`- (\w+)(?: "([^"]*)")?[^\n]*\[ref=((?:f\d+)?e\d+)\]`)

// Ref finds the ref of the first element with role whose name contains name
// (any name when name is "") in an observation's text.
func Ref(t testing.TB, obs map[string]any, role, name string) string {
	t.Helper()
	text, _ := obs["text"].(string)
	for _, m := range lineRef.FindAllStringSubmatch(text, -1) {
		if m[1] == role && (name == "" || regexp.MustCompile(regexp.QuoteMeta(name)).MatchString(m[2])) {
			return m[3]
		}
	}
	t.Fatalf("no %s %q in the observation:\n%s", role, name, text)
	return ""
}

// ID is the observation id of an observe result.
func ID(obs map[string]any) string { s, _ := obs["observation"].(string); return s }

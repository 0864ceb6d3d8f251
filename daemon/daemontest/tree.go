package daemontest

import (
	"encoding/json"
	"regexp"
	"testing"
)

var lineRef = regexp.MustCompile(`- (\w+)(?: "([^"]*)")?[^\n]*\[ref=((?:f\d+)?e\d+)\]`)

// Ref finds the ref of the first element with role whose name contains name
// (any name when name is "") in an observation's text.
func Ref(t testing.TB, obs map[string]any, role, name string) string {
	t.Helper()
	ref, ok := FindRef(obs, role, name)
	if !ok {
		text, _ := obs["text"].(string)
		t.Fatalf("no %s %q in the observation:\n%s", role, name, text)
	}
	return ref
}

// FindRef is Ref for callers off the test's goroutine: false when no such
// element is in the observation.
func FindRef(obs map[string]any, role, name string) (string, bool) {
	text, _ := obs["text"].(string)
	for _, m := range lineRef.FindAllStringSubmatch(text, -1) {
		if m[1] == role && (name == "" || regexp.MustCompile(regexp.QuoteMeta(name)).MatchString(m[2])) {
			return m[3], true
		}
	}
	return "", false
}

// ID is the observation id of an observe result.
func ID(obs map[string]any) string { s, _ := obs["observation"].(string); return s }

// Evidence is the fresh observation a refusal brought with it, as an
// observe result reads, failing the test when it brought none.
func Evidence(t testing.TB, r *Reply) map[string]any {
	t.Helper()
	if r.Error == nil || r.Error.Observation == nil {
		t.Fatalf("the answer brought no fresh observation: %+v %s", r.Error, r.Result)
	}
	raw, err := json.Marshal(r.Error.Observation)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

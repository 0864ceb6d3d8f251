package main_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretCommands: `buddi secret` keeps the value it reads on standard
// input in an owner-only file, lists names and origins without it, removes
// by name, and refuses bad input in one sentence with its code.
func TestSecretCommands(t *testing.T) {
	const value = "s3cret-from-stdin-8812"
	dir := t.TempDir()
	run := func(stdin string, args ...string) result {
		t.Helper()
		return runCLIWith(t, stdin, nil, append([]string{"secret", "--data", dir}, args...)...)
	}
	if r := run(value+"\n", "add", "gh", "--origin", "https://GitHub.com/"); r.code != 0 || strings.Contains(r.stdout+r.stderr, value) {
		t.Fatalf("add: %+v", r)
	}
	st, err := os.Stat(filepath.Join(dir, "secrets.json"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the secrets file: %v, %v; want mode 0600", st, err)
	}
	if raw, _ := os.ReadFile(filepath.Join(dir, "secrets.json")); !bytes.Contains(raw, []byte(`"`+value+`"`)) {
		t.Fatalf("the value read from standard input is not what was kept (no line end): %s", raw)
	}
	if r := run("", "list"); r.code != 0 || !strings.Contains(r.stdout, "gh") || !strings.Contains(r.stdout, "https://github.com") || strings.Contains(r.stdout, value) {
		t.Fatalf("list: %+v", r)
	}
	refused := map[string]struct {
		stdin string
		args  []string
		code  int
		says  string
	}{
		"no origin":       {value, []string{"add", "x"}, 1, "(bad_input)"},
		"a path":          {value, []string{"add", "x", "--origin", "https://a.example/login"}, 1, "(bad_input)"},
		"no value":        {"", []string{"add", "x", "--origin", "https://a.example"}, 1, "(bad_input)"},
		"unknown secret":  {"", []string{"remove", "nope"}, 1, "(unknown_secret)"},
		"unknown command": {"", []string{"show", "gh"}, 2, "run `buddi secret --help`"},
	}
	for name, c := range refused {
		r := run(c.stdin, c.args...)
		if r.code != c.code || !strings.Contains(r.stderr, c.says) || strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
			t.Errorf("%s: %+v; want exit %d and one line with %s", name, r, c.code, c.says)
		}
	}
	if r := run("", "remove", "gh"); r.code != 0 {
		t.Fatalf("remove: %+v", r)
	}
	if r := run("", "list"); r.code != 0 || strings.Contains(r.stdout, "https://github.com") {
		t.Fatalf("list after remove: %+v", r)
	}
}

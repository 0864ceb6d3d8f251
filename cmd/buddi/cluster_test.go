package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buddi cluster init writes a secret once, refuses to write over it, and
// says a directory named by --out is a directory rather than a secret
// that exists.
func TestClusterInitWritesOneSecretAndNamesADirectory(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "cluster.secret")
	r := runCLI(t, nil, "cluster", "init", "--out", out)
	st, err := os.Stat(out)
	if r.code != 0 || err != nil || st.Mode().Perm() != 0o600 || st.Size() != 32 {
		t.Fatalf("init: exit %d out %q err %q; file %v %v", r.code, r.stdout, r.stderr, st, err)
	}
	r = runCLI(t, nil, "cluster", "init", "--out", out)
	if r.code == 0 || !strings.Contains(r.stderr, "exists and is not overwritten") {
		t.Fatalf("a second init over the file: exit %d err %q", r.code, r.stderr)
	}
	r = runCLI(t, nil, "cluster", "init", "--out", dir)
	want := dir + " is a directory: name the secret's file, for example --out " + out + "."
	if r.code == 0 || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "exists") {
		t.Fatalf("init naming a directory: exit %d err %q, want %q", r.code, r.stderr, want)
	}
}

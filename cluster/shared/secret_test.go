package shared_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/cluster/shared"
)

func TestAClusterSecretIsMadeOnceAndReadOnlyAsItsOwnersFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "cluster.secret")
	if err := shared.MakeSecret(path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Fatalf("the secret's mode is %04o; want 0600", info.Mode().Perm())
	}
	first, _ := os.ReadFile(path)
	if err := shared.MakeSecret(path); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("making a second secret at %s said %v; want it refused", path, err)
	}
	if again, _ := os.ReadFile(path); string(again) != string(first) {
		t.Fatal("a second init changed the secret")
	}
	if _, err := shared.ReadSecret(path); err != nil {
		t.Fatalf("reading the secret init made: %v", err)
	}

	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for name, c := range map[string]struct {
		path string
		says string
	}{
		"missing":        {filepath.Join(dir, "none"), "buddi cluster init"},
		"others read it": {write("open", string(first), 0o644), "chmod 600"},
		"not hex":        {write("words", "not a secret\n", 0o600), "is not a cluster secret"},
		"too short":      {write("short", "abcd\n", 0o600), "is not a cluster secret"},
	} {
		_, err := shared.ReadSecret(c.path)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: ReadSecret said %v; want it refused, saying %q", name, err, c.says)
		}
		var none *shared.NoSecretError
		if errors.As(err, &none) != (name == "missing") {
			t.Errorf("%s: ReadSecret said %T; a *NoSecretError only when there is no file", name, err)
		}
	}
}

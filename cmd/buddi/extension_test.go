package main_test

import (
	"strings"
	"testing"
)

func TestExtensionStatusPairAndForget(t *testing.T) {
	dir := t.TempDir()
	serve(t, dir)
	cli := func(args ...string) result {
		t.Helper()
		return runCLI(t, nil, append(args, "--data", dir)...)
	}
	if r := cli("extension", "status"); r.code != 0 || !strings.Contains(r.stdout, "No browser extension is paired") ||
		!strings.Contains(r.stdout, "was not found next to this buddi") { // the test's buddi is built into a temporary directory
		t.Fatalf("status: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := cli("extension", "pair", "123456"); r.code != 1 || !strings.Contains(r.stderr, "(no_code)") {
		t.Fatalf("pair with no code showing: exit %d %q", r.code, r.stderr)
	}
	if r := cli("extension", "forget"); r.code != 0 || !strings.Contains(r.stdout, "Forgotten") {
		t.Fatalf("forget: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	if r := cli("doctor"); !strings.Contains(r.stdout, "none paired") {
		t.Fatalf("doctor's extension row:\n%s", r.stdout)
	}
	if r := runCLI(t, nil, "extension", "--help"); r.code != 0 || !strings.Contains(r.stdout, "pair CODE") {
		t.Fatalf("help: exit %d %q", r.code, r.stdout)
	}
	if r := cli("extension", "pear"); r.code != 2 || !strings.Contains(r.stderr, "not a subcommand") {
		t.Fatalf("a misspelt subcommand: exit %d %q", r.code, r.stderr)
	}
}

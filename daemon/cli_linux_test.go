//go:build linux

package daemon_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// buddiCLI builds the real buddi command for the test and returns a
// function that runs it against d (its data directory and address), with
// its exit code, standard output and standard error. Call it before the
// test's desktop moves HOME, or the build finds no cache.
func buddiCLI(t *testing.T, d func() *daemontest.Daemon) func(args ...string) (int, string, string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "buddi")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/buddi").CombinedOutput(); err != nil {
		t.Fatalf("building buddi: %v\n%s", err, out)
	}
	return func(args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(bin, append(args, "--data", d().Dir, "--addr", d().Addr())...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			return ee.ExitCode(), out.String(), errb.String()
		case err != nil:
			t.Fatal(err)
		}
		return 0, out.String(), errb.String()
	}
}

package daemontest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// MainWithBinary builds the buddi binary from pkg (a path relative to the
// test's package) into a temp dir, sets *bin to it, runs the tests and
// removes it: the TestMain of every suite that runs buddi as a process.
// flags are more of go build's, such as -tags k8s.
func MainWithBinary(m *testing.M, pkg string, bin *string, flags ...string) {
	os.Exit(RunWithBinary(m, pkg, bin, flags...))
}

// RunWithBinary is MainWithBinary that returns the tests' exit code, for a
// TestMain with more to stop after the tests.
func RunWithBinary(m *testing.M, pkg string, bin *string, flags ...string) int {
	dir, err := os.MkdirTemp("", "buddi-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	*bin = filepath.Join(dir, "buddi")
	args := append(append([]string{"build"}, flags...), "-o", *bin, pkg)
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building buddi: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// WantCode fails the test unless r carries the error code (or "" for success).
func WantCode(t testing.TB, r *Reply, code string) {
	t.Helper()
	if string(r.Code()) == code {
		return
	}
	msg := ""
	if r.Error != nil {
		msg = r.Error.Message
	}
	t.Fatalf("got code %q (%s), want %q; result %s", r.Code(), msg, code, r.Result)
}

// FreeAddr returns a 127.0.0.1 address with a port that was free a moment ago.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

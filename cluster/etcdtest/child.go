package etcdtest

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Child runs the test binary again as a process of its own, with env set
// to value (its TestMain sees it and plays a member), and returns the
// process and the first line it printed, which says it is up. The process
// is killed when the test ends.
func Child(t testing.TB, env, value string) (*exec.Cmd, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+value)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("the child process said %q before it ended: %v", line, err)
	}
	return cmd, strings.TrimSuffix(line, "\n")
}

// FreeAddr is a 127.0.0.1 address nothing listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

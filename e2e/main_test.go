package e2e_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

var bin string

func TestMain(m *testing.M) {
	code := daemontest.RunWithBinary(m, "../cmd/buddi", &bin)
	webtest.Stop() // the owner's browser, if a test drove the dashboard
	os.Exit(code)
}

// buddi is one `buddi serve` process.
type buddi struct {
	*daemontest.Client
	cmd  *exec.Cmd
	dir  string
	addr string
	logs *daemontest.Buffer
	env  []string
}

// serve starts buddi serve with real Chromium, the given preview origins
// and extra environment, and waits until it is healthy.
func serve(t testing.TB, dir string, env ...string) *buddi {
	t.Helper()
	if dir == "" {
		dir = browsertest.TempDir(t)
	}
	addr := daemontest.FreeAddr(t)
	b := &buddi{dir: dir, addr: addr, logs: &daemontest.Buffer{}, env: env}
	b.cmd = exec.Command(bin, "serve", "--data", dir, "--addr", addr)
	if prof := os.Getenv("BUDDI_E2E_CPUPROFILE"); prof != "" {
		// A CPU profile of each serve, start to shutdown, for a benchmark
		// that asks where the time goes (go tool pprof).
		b.cmd.Args = append(b.cmd.Args, "--cpuprofile", filepath.Join(prof, "serve-"+filepath.Base(dir)+".pprof"))
	}
	b.cmd.Env = append(os.Environ(), "BUDDI_LOG_LEVEL=info")
	b.cmd.Env = append(b.cmd.Env, env...)
	stdout, _ := b.cmd.StdoutPipe()
	b.cmd.Stderr = b.logs
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.stop()
		if t.Failed() {
			t.Logf("buddi serve logs:\n%s", b.logs.String())
		}
	})
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if !strings.Contains(line, "serving at") {
		t.Fatalf("serve said %q; logs:\n%s", line, b.logs.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	token, err := instance.ReadOwnerToken(dir)
	if err != nil {
		t.Fatal(err)
	}
	b.Client = daemontest.NewClient("http://"+addr, token)
	return b
}

// stop asks serve to shut down (which closes the browser with it), and
// kills it only if it has not gone within the deadline.
func (b *buddi) stop() {
	if b.cmd.ProcessState != nil {
		return
	}
	_ = b.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = b.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = b.cmd.Process.Kill()
		<-done
	}
}

// kill9 kills the process without letting it clean up.
func (b *buddi) kill9(t *testing.T) {
	t.Helper()
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
}

func waitUntil(t *testing.T, d time.Duration, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

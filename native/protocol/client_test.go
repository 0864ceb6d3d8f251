package protocol_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

// fake is a Client whose helper is this test binary in mode.
func fake(t testing.TB, mode string) *protocol.Client {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), fakeHelperVar+"="+mode, "BUDDI_FAKE_PIDFILE="+filepath.Join(t.TempDir(), "pid"))
	return &protocol.Client{Path: self, Env: env}
}

func pidFile(c *protocol.Client) string {
	for _, kv := range c.Env {
		if v, ok := strings.CutPrefix(kv, "BUDDI_FAKE_PIDFILE="); ok {
			return v
		}
	}
	return ""
}

func press() protocol.PressArgs { return protocol.PressArgs{Guard: guard, Key: "Enter"} }

func TestClientReturnsTheResult(t *testing.T) {
	p, err := fake(t, "probe").Probe(context.Background())
	if err != nil || !p.Ready || p.Platform != "linux-x11" {
		t.Fatalf("got %+v, %v", p, err)
	}
}

func TestClientReturnsRefusalsAsErrors(t *testing.T) {
	_, err := fake(t, "refuse").Press(context.Background(), press())
	var e *protocol.Error
	if !errors.As(err, &e) || e.Code != protocol.CodeFocusChanged || e.InputUncertain {
		t.Fatalf("got %v, want a certain focus_changed refusal", err)
	}
	if !errors.Is(err, &protocol.Error{Code: protocol.CodeFocusChanged}) {
		t.Fatal("errors.Is does not match the code")
	}
}

// TestClientHelperFailures runs helpers that fail each way the protocol
// names: every one is a typed error, and for an input call it says the
// input may have happened.
func TestClientHelperFailures(t *testing.T) {
	cases := map[string]protocol.Code{
		"malformed": protocol.CodeHelperMalformed,
		"empty":     protocol.CodeHelperMalformed,
		"oversized": protocol.CodeHelperOversized,
		"crash":     protocol.CodeHelperCrashed,
	}
	for mode, code := range cases {
		t.Run(mode, func(t *testing.T) {
			_, err := fake(t, mode).Press(context.Background(), press())
			var e *protocol.Error
			if !errors.As(err, &e) || e.Code != code {
				t.Fatalf("got %v, want %s", err, code)
			}
			if !e.InputUncertain {
				t.Fatalf("%s on a press does not say the input may have happened", code)
			}
			_, err = fake(t, mode).Probe(context.Background())
			if !errors.As(err, &e) || e.Code != code || e.InputUncertain {
				t.Fatalf("probe: got %v, want %s without uncertainty", err, code)
			}
		})
	}
}

func TestClientCrashKeepsTheHelpersStderrAsDetail(t *testing.T) {
	_, err := fake(t, "crash").Probe(context.Background())
	var e *protocol.Error
	if !errors.As(err, &e) || !strings.Contains(e.Detail, "segmentation fault in the accessibility bridge") {
		t.Fatalf("got %v, want the helper's stderr in the detail", err)
	}
}

// TestClientKillsALateHelpersGroup gives a helper that never answers a
// short timeout: the call fails as late and the helper's own child, in
// its process group, is killed too.
func TestClientKillsALateHelpersGroup(t *testing.T) {
	c := fake(t, "late")
	c.Timeout = func(*protocol.Request) time.Duration { return 2 * time.Second }
	_, err := c.Press(context.Background(), press())
	var e *protocol.Error
	if !errors.As(err, &e) || e.Code != protocol.CodeHelperTimeout || !e.InputUncertain {
		t.Fatalf("got %v, want an uncertain helper_timeout", err)
	}
	assertGrandchildGone(t, c)
}

func TestClientCancelKillsTheHelpersGroup(t *testing.T) {
	c := fake(t, "late")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, err := c.Probe(ctx); done <- err }()
	waitForFile(t, pidFile(c))
	cancel()
	if err := <-done; protocol.CodeOf(err) != protocol.CodeCancelled {
		t.Fatalf("got %v, want cancelled", err)
	}
	assertGrandchildGone(t, c)
}

func TestClientMissingHelper(t *testing.T) {
	c := &protocol.Client{Path: filepath.Join(t.TempDir(), "no-such-helper")}
	_, err := c.Press(context.Background(), press())
	var e *protocol.Error
	if !errors.As(err, &e) || e.Code != protocol.CodeHelperMissing || e.InputUncertain {
		t.Fatalf("got %v, want a certain helper_missing", err)
	}
}

func TestClientRefusesAnInvalidRequestWithoutRunningTheHelper(t *testing.T) {
	c := &protocol.Client{Path: filepath.Join(t.TempDir(), "never-run")}
	_, err := c.Navigate(context.Background(), "chromium", "file:///etc/passwd")
	if protocol.CodeOf(err) != protocol.CodeBadURL {
		t.Fatalf("got %v, want bad_url", err)
	}
}

func assertGrandchildGone(t *testing.T, c *protocol.Client) {
	t.Helper()
	b, err := os.ReadFile(pidFile(c))
	if err != nil {
		t.Fatalf("the fake helper did not start its child: %v", err)
	}
	pid, _ := strconv.Atoi(string(b))
	if !gone(t, pid) {
		t.Fatalf("the helper's child %d outlived the call", pid)
	}
}

func waitForFile(t testing.TB, path string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never appeared", path)
}

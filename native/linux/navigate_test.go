//go:build linux

package linux_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

// TestNavigateRunsTheBrowsersEntryWithTheURL stands a recording program in
// for the browser app: navigate runs its desktop entry with the URL as one
// argument, and nothing for an entry that takes no URL.
func TestNavigateRunsTheBrowsersEntryWithTheURL(t *testing.T) {
	s := newSession(t)
	out := filepath.Join(s.d.Dir, "opened")
	browser := filepath.Join(s.d.Dir, "browser")
	script := "#!/bin/sh\nprintf '%s|' \"$@\" > " + out + ".part && mv " + out + ".part " + out + "\n"
	if err := os.WriteFile(browser, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	s.d.AddApp(t, "test.browser", "Test Browser", browser+" --new-tab %U")
	s.d.AddApp(t, "test.nourl", "No URL", browser)

	url := "https://example.com/a b?c=d&e=f#g"
	if _, err := s.c.Navigate(ctx(t), "test.browser", url); protocol.CodeOf(err) != protocol.CodeBadURL {
		t.Fatalf("a URL with a space: got %v, want bad_url", err)
	}
	url = "https://example.com/a?c=d&e=$(touch%20x)#g"
	nav, err := s.c.Navigate(ctx(t), "test.browser", url)
	if err != nil || nav.URL != url || nav.Browser.ID != "test.browser" {
		t.Fatalf("navigate: %+v, %v", nav, err)
	}
	if got := waitForFile(t, out); got != "--new-tab|"+url+"|" {
		t.Fatalf("the browser was run with %q, want --new-tab and the URL as one argument", got)
	}

	_ = os.Remove(out)
	_, err = s.c.Navigate(ctx(t), "test.nourl", url)
	wantCode(t, err, protocol.CodeLaunchFailed)
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a browser entry without %u was run")
	}
}

// TestHelperRefusesAFileURLItself sends the helper a request the Client
// would have refused: the helper checks the URL on its own too.
func TestHelperRefusesAFileURLItself(t *testing.T) {
	s := newSession(t)
	cmd := exec.Command(helperBin)
	cmd.Env = s.d.Env
	cmd.Stdin = bytes.NewReader([]byte(`{"v":1,"call":"navigate","timeout_ms":5000,"navigate":{"browser":"org.gnome.Calculator","url":"file:///etc/passwd"}}`))
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("the helper failed: %v", err)
	}
	r, err := protocol.DecodeResponse(protocol.CallNavigate, b)
	if err != nil || r.Error == nil || r.Error.Code != protocol.CodeBadURL {
		t.Fatalf("got %s, %v; want bad_url", b, err)
	}
}

func waitForFile(t testing.TB, path string) string {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s was never written", path)
	return ""
}

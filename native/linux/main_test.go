//go:build linux

package linux_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/native/linux/linuxtest"
	"github.com/buddi-dev/buddi/native/protocol"
)

// helperBin is the helper built once for the package's tests.
var helperBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "buddi-computer-linux")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	helperBin = filepath.Join(dir, "buddi-computer-linux")
	if out, err := exec.Command("go", "build", "-o", helperBin, "./cmd/buddi-computer-linux").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building the helper: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// session is a desktop with a client for the helper inside it.
type session struct {
	t testing.TB
	d *linuxtest.Desktop
	c *protocol.Client
}

func newSession(t testing.TB) *session {
	t.Helper()
	d := linuxtest.Start(t)
	return &session{t: t, d: d, c: &protocol.Client{Path: helperBin, Env: d.Env}}
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

// wantCode fails unless err is a protocol error with code.
func wantCode(t testing.TB, err error, code protocol.Code) *protocol.Error {
	t.Helper()
	var e *protocol.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("got %v, want code %s", err, code)
	}
	if e.Message == "" || strings.Contains(e.Message, "\n") {
		t.Fatalf("the refusal %s has no one-line sentence: %q", code, e.Message)
	}
	return e
}

const calculator = "org.gnome.Calculator"

// openCalculator opens the calculator through the helper and waits until
// its tree can be observed.
func (s *session) openCalculator() *protocol.Opened {
	s.t.Helper()
	if _, err := exec.LookPath("gnome-calculator"); err != nil {
		s.t.Fatalf("gnome-calculator is not installed; run scripts/testdeps.sh or `apt-get install gnome-calculator`")
	}
	opened, err := s.c.Open(ctx(s.t), protocol.OpenArgs{ID: calculator})
	if err != nil {
		s.t.Fatalf("open %s: %v", calculator, err)
	}
	s.observeUntil(func(o *protocol.Observation) bool { return find(o, "button", "=") != nil })
	return opened
}

// observeUntil observes until ok holds, as an app registers on the
// accessibility bus and updates its tree in its own time.
func (s *session) observeUntil(ok func(*protocol.Observation) bool) *protocol.Observation {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		o, err := s.c.Observe(ctx(s.t), calculator)
		if err == nil && ok(o) {
			return o
		}
		last = err
		if err == nil {
			last = fmt.Errorf("the observation did not show it yet: %s", display(o))
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("no observation showed what was awaited within 30 seconds: %v", last)
	return nil
}

// find returns the first node with role whose name is name or starts with
// "name " (GTK 4 names a calculator button "7 7").
func find(o *protocol.Observation, role, name string) *protocol.Node {
	for i := range o.Nodes {
		n := &o.Nodes[i]
		if n.Role == role && (n.Name == name || strings.HasPrefix(n.Name, name+" ")) {
			return n
		}
	}
	return nil
}

// display is the calculator's entry: the first editable text box.
func display(o *protocol.Observation) string {
	for _, n := range o.Nodes {
		if n.Role == "textbox" && hasState(n, protocol.StateEditable) {
			return n.Value
		}
	}
	return "<no entry>"
}

func hasState(n protocol.Node, s protocol.State) bool {
	for _, x := range n.States {
		if x == s {
			return true
		}
	}
	return false
}

func entryNode(t testing.TB, o *protocol.Observation) *protocol.Node {
	t.Helper()
	for i := range o.Nodes {
		if o.Nodes[i].Role == "textbox" && hasState(o.Nodes[i], protocol.StateEditable) {
			return &o.Nodes[i]
		}
	}
	t.Fatalf("the calculator shows no editable entry")
	return nil
}

func guard(o *protocol.Observation) protocol.Guard {
	return protocol.Guard{App: o.Window.AppID, Window: o.Window.Fingerprint}
}

func target(n *protocol.Node) *protocol.ElementTarget {
	return &protocol.ElementTarget{Ref: n.Ref, Locator: n.Locator, Fingerprint: n.Fingerprint}
}

// clickRef clicks the button named name in observation o.
func (s *session) clickRef(o *protocol.Observation, name string) *protocol.InputResult {
	s.t.Helper()
	n := find(o, "button", name)
	if n == nil {
		s.t.Fatalf("no button %q in the observation", name)
	}
	r, err := s.c.Click(ctx(s.t), protocol.ClickArgs{Guard: guard(o), Element: target(n)})
	if err != nil {
		s.t.Fatalf("click %s (%s): %v", n.Ref, name, err)
	}
	return r
}

//go:build linux

package native_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/native/linux/linuxtest"
	"github.com/buddi-dev/buddi/native/protocol"
)

// desktop is the driver on a private Xvfb desktop through the real Linux
// helper, with the calculator allowed.
type desktop struct {
	t   testing.TB
	d   *linuxtest.Desktop
	drv *native.Driver
}

const realCalc = "org.gnome.Calculator"

func newDesktop(t testing.TB, apps native.Apps) *desktop {
	t.Helper()
	for _, p := range []string{"Xvfb", "dbus-daemon", "gnome-calculator"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed, so the desktop test cannot run; run scripts/testdeps.sh", p)
		}
	}
	if _, err := os.Stat("/usr/share/dbus-1/services/org.a11y.Bus.service"); err != nil {
		t.Skip("the accessibility bus (at-spi2-core) is not installed, so the desktop test cannot run; run scripts/testdeps.sh")
	}
	d := linuxtest.Start(t)
	drv := native.New(native.Config{Helper: linuxHelper, Env: d.Env, Apps: func() native.Apps { return apps }})
	t.Cleanup(func() { _ = drv.Close() })
	return &desktop{t: t, d: d, drv: drv}
}

// observeUntil observes until ok holds: an app registers on the
// accessibility bus and redraws in its own time.
func (s *desktop) observeUntil(tabs drivers.Tabs, ok func(*drivers.Observation) bool) *drivers.Observation {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		o, err := tabs.Observe(ctx(s.t), drivers.ObserveOptions{Screenshot: true})
		if err == nil && ok(o) {
			return o
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("no observation showed what was awaited within 30 seconds (last error %v)", last)
	return nil
}

// button is the target of the calculator's button name ("7", or GTK 4's "7 7").
func button(o *drivers.Observation, name string) *drivers.Target {
	for _, tg := range o.Refs {
		if tg.Role == "button" && (tg.Name == name || strings.HasPrefix(tg.Name, name+" ")) {
			return o.Of(tg)
		}
	}
	return nil
}

// entry is the calculator's editable text box and what it reads, from the
// tree's line for it.
func entry(o *drivers.Observation) (*drivers.Target, string) {
	for _, line := range strings.Split(o.Tree, "\n") {
		if !strings.Contains(line, "- textbox") || !strings.Contains(line, " editable") {
			continue
		}
		i := strings.Index(line, "[ref=")
		tg := o.Refs[strings.TrimSuffix(line[i+len("[ref="):], "]")]
		value := ""
		if j := strings.Index(line, `value="`); j >= 0 {
			value = line[j+len(`value="`):]
			value = value[:strings.Index(value, `"`)]
		}
		return o.Of(tg), value
	}
	return nil, "<no entry>"
}

func reads(want string) func(*drivers.Observation) bool {
	return func(o *drivers.Observation) bool { _, v := entry(o); return v == want }
}

func (s *desktop) open(tabs drivers.Tabs) *drivers.Observation {
	s.t.Helper()
	if _, err := tabs.Do(ctx(s.t), &drivers.Action{Kind: drivers.Open, AppID: realCalc}); err != nil {
		s.t.Fatalf("open %s: %v", realCalc, err)
	}
	return s.observeUntil(tabs, func(o *drivers.Observation) bool { return button(o, "=") != nil })
}

func (s *desktop) do(tabs drivers.Tabs, a *drivers.Action) {
	s.t.Helper()
	if _, err := tabs.Do(ctx(s.t), a); err != nil {
		s.t.Fatalf("%s: %v", a.Kind, err)
	}
}

// TestDesktopCalculator opens the allowed calculator, works out 12 × 7 by
// clicking its buttons by ref, fills 6×7 and presses Enter, and clicks a
// button by a pixel of an unchanged screenshot, all through the driver and
// the real Linux helper.
func TestDesktopCalculator(t *testing.T) {
	s := newDesktop(t, native.Apps{Browser: "google-chrome", Allowed: []string{realCalc}})
	tabs, err := s.drv.Open(ctx(t), "c1")
	if err != nil {
		t.Fatal(err)
	}
	o := s.open(tabs)
	if !strings.Contains(o.Tree, `Window "Calculator"`) || o.TakenAt.IsZero() || o.Title != "Calculator" || len(o.Screenshot) == 0 {
		t.Fatalf("observation: title %q, %d-byte screenshot, tree:\n%s", o.Title, len(o.Screenshot), o.Tree)
	}
	for ref := range o.Refs {
		if !strings.HasPrefix(ref, "ax") {
			t.Fatalf("ref %q is not ax<n>", ref)
		}
	}
	for _, key := range []string{"1", "2", "×", "7", "="} {
		s.do(tabs, &drivers.Action{Kind: drivers.Click, Target: button(o, key)})
		o = s.observeUntil(tabs, func(*drivers.Observation) bool { return true })
	}
	o = s.observeUntil(tabs, reads("84"))
	t.Logf("12 × 7 = 84 by refs; the tree has %d refs, %d bytes", len(o.Refs), len(o.Tree))

	field, _ := entry(o)
	s.do(tabs, &drivers.Action{Kind: drivers.Fill, Target: field, Value: "6×7"})
	s.observeUntil(tabs, reads("6×7"))
	s.do(tabs, &drivers.Action{Kind: drivers.Press, Value: "Enter"})
	s.observeUntil(tabs, reads("42"))

	s.do(tabs, &drivers.Action{Kind: drivers.Press, Value: "Escape"})
	o = s.observeUntil(tabs, reads(""))
	nine := button(o, "9")
	if nine == nil {
		t.Fatal("no button 9")
	}
	x, y := boxCentre(t, s, nine)
	s.do(tabs, &drivers.Action{Kind: drivers.Click, Point: &drivers.Point{X: x, Y: y}})
	s.observeUntil(tabs, reads("9"))
}

// boxCentre is the centre of the element's box in the window, as the
// helper itself reports it (the driver's tree does not print boxes).
func boxCentre(t *testing.T, s *desktop, tg *drivers.Target) (int, int) {
	t.Helper()
	c := &protocol.Client{Path: linuxHelper, Env: s.d.Env}
	o, err := c.Observe(ctx(t), realCalc)
	if err != nil {
		t.Fatalf("observing through the helper: %v", err)
	}
	for _, n := range o.Nodes {
		if n.Role == tg.Role && n.Name == tg.Name {
			return n.Box.Center()
		}
	}
	t.Fatalf("the helper shows no %s %q", tg.Role, tg.Name)
	return 0, 0
}

// TestDesktopFocusMovedIsRefused: once another window takes focus, a click
// by ref and a key are refused with nothing typed, the driver does not
// bring the calculator back, and it works again once the owner does.
func TestDesktopFocusMovedIsRefused(t *testing.T) {
	s := newDesktop(t, native.Apps{Browser: "google-chrome", Allowed: []string{realCalc}})
	tabs, _ := s.drv.Open(ctx(t), "c1")
	o := s.open(tabs)
	calcWindow := o.Tab
	other := s.d.FocusNewWindow(t)

	_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Target: button(o, "7")})
	wantCode(t, err, drivers.CodeTabGone)
	_, err = tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Press, Value: "7"})
	wantCode(t, err, drivers.CodeTabGone)
	_, err = tabs.Observe(ctx(t), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeTabGone)
	if got := focusedWindow(t, s); got != other {
		t.Fatalf("after the refusals %s has focus, want the other window %s (never refocused)", got, other)
	}

	s.d.Focus(t, calcWindow)
	o = s.observeUntil(tabs, func(*drivers.Observation) bool { return true })
	if _, v := entry(o); v != "" {
		t.Fatalf("the entry reads %q after the refused input, want it empty", v)
	}
	s.do(tabs, &drivers.Action{Kind: drivers.Click, Target: button(o, "7")})
	s.observeUntil(tabs, reads("7"))
}

// focusedWindow is the window the helper finds focused, from its refusal.
func focusedWindow(t *testing.T, s *desktop) string {
	t.Helper()
	c := &protocol.Client{Path: linuxHelper, Env: s.d.Env}
	_, err := c.Observe(ctx(t), realCalc)
	var e *protocol.Error
	if !errors.As(err, &e) || e.Window == nil {
		t.Fatalf("observing the calculator with another window focused gave %v", err)
	}
	return e.Window.ID
}

// TestDesktopUnlistedAppIsNotLaunched: an app off the list is not opened
// without the owner's answer.
func TestDesktopUnlistedAppIsNotLaunched(t *testing.T) {
	s := newDesktop(t, native.Apps{Browser: "google-chrome"})
	tabs, _ := s.drv.Open(ctx(t), "c1")
	_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Open, AppID: realCalc})
	wantCode(t, err, drivers.CodeNotAllowed)
	c := &protocol.Client{Path: linuxHelper, Env: s.d.Env}
	if o, err := c.Observe(ctx(t), realCalc); err == nil {
		t.Fatalf("the calculator's window %q has focus after the refused open", o.Window.Title)
	}
}

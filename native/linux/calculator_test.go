//go:build linux

package linux_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/native/protocol"
)

// TestCalculatorByRefs opens gnome-calculator by id, observes it, works out
// 12 × 7 by clicking its visible buttons by ref and reads 84 back from a
// fresh observation.
func TestCalculatorByRefs(t *testing.T) {
	s := newSession(t)
	opened := s.openCalculator()
	if !opened.Started || opened.App.ID != calculator || opened.Window.AppID != calculator {
		t.Fatalf("open answered %+v, want the calculator started and focused", opened)
	}

	o := s.observeUntil(func(o *protocol.Observation) bool { return find(o, "button", "=") != nil })
	if o.Window.AppID != calculator || o.Window.Title != "Calculator" || o.Window.PID == 0 {
		t.Fatalf("observed window %+v, want the calculator's", o.Window)
	}
	ref := regexp.MustCompile(`^ax[1-9][0-9]*$`)
	for _, n := range o.Nodes {
		if !ref.MatchString(n.Ref) {
			t.Fatalf("node ref %q is not axN", n.Ref)
		}
	}
	img, err := png.Decode(bytes.NewReader(o.Screenshot.Data))
	if err != nil {
		t.Fatalf("the screenshot is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != o.Window.Frame.W || b.Dy() != o.Window.Frame.H || b.Dx() >= 1280 {
		t.Fatalf("the screenshot is %v, want only the window's %dx%d, not the 1280x800 screen", b, o.Window.Frame.W, o.Window.Frame.H)
	}

	for _, key := range []string{"1", "2", "×", "7", "="} {
		if r := s.clickRef(o, key); r.Via != protocol.ViaAction {
			t.Fatalf("clicking %s went through %s, want the button's own action", key, r.Via)
		}
		o = s.observeUntil(func(*protocol.Observation) bool { return true })
	}
	o = s.observeUntil(func(o *protocol.Observation) bool { return display(o) == "84" })
	t.Logf("12 × 7 = %s; the tree has %d refs", display(o), len(o.Nodes))
}

// TestFillAndPress fills the calculator's entry, replacing what it holds,
// with a character the test keyboard lacks (×), and presses Enter.
func TestFillAndPress(t *testing.T) {
	s := newSession(t)
	s.openCalculator()
	o := s.observeUntil(func(*protocol.Observation) bool { return true })
	s.clickRef(o, "9")
	o = s.observeUntil(func(o *protocol.Observation) bool { return display(o) == "9" })

	entry := entryNode(t, o)
	r, err := s.c.Fill(ctx(t), protocol.FillArgs{Guard: guard(o), Element: *target(entry), Value: "6×7"})
	if err != nil {
		t.Fatalf("fill: %v", err)
	}
	if r.Via != protocol.ViaKeyboard {
		t.Fatalf("fill went through %s, want the keyboard", r.Via)
	}
	o = s.observeUntil(func(o *protocol.Observation) bool { return display(o) == "6×7" })
	if _, err := s.c.Press(ctx(t), protocol.PressArgs{Guard: guard(o), Key: "Enter"}); err != nil {
		t.Fatalf("press Enter: %v", err)
	}
	s.observeUntil(func(o *protocol.Observation) bool { return display(o) == "42" })
}

// TestPixelClick clicks a button by a pixel of an unchanged screenshot, and
// is refused, clicking nothing, once the window changed.
func TestPixelClick(t *testing.T) {
	s := newSession(t)
	s.openCalculator()
	o := s.observeUntil(func(*protocol.Observation) bool { return true })
	nine := find(o, "button", "9")
	x, y := nine.Box.Center()
	point := &protocol.PointTarget{X: x, Y: y, Scale: o.Screenshot.Scale, Screenshot: o.Screenshot.Hash}
	r, err := s.c.Click(ctx(t), protocol.ClickArgs{Guard: guard(o), Point: point})
	if err != nil {
		t.Fatalf("pixel click on an unchanged window: %v", err)
	}
	if r.Via != protocol.ViaPointer {
		t.Fatalf("the pixel click went through %s, want the pointer", r.Via)
	}
	s.observeUntil(func(o *protocol.Observation) bool { return display(o) == "9" })

	// The window changes after this observation: its pixels no longer match.
	old := s.observeUntil(func(*protocol.Observation) bool { return true })
	s.clickRef(old, "1")
	s.observeUntil(func(o *protocol.Observation) bool { return display(o) == "91" })
	x, y = find(old, "button", "5").Box.Center()
	stale := &protocol.PointTarget{X: x, Y: y, Scale: old.Screenshot.Scale, Screenshot: old.Screenshot.Hash}
	_, err = s.c.Click(ctx(t), protocol.ClickArgs{Guard: guard(old), Point: stale})
	wantCode(t, err, protocol.CodeScreenshotChanged)
	if o := s.observeUntil(func(*protocol.Observation) bool { return true }); display(o) != "91" {
		t.Fatalf("after the refused click the entry reads %q, want 91 (nothing clicked)", display(o))
	}

	outside := &protocol.PointTarget{X: o.Window.Frame.W + 5, Y: 5, Scale: 1, Screenshot: s.observeUntil(func(*protocol.Observation) bool { return true }).Screenshot.Hash}
	o = s.observeUntil(func(*protocol.Observation) bool { return true })
	outside.Screenshot = o.Screenshot.Hash
	_, err = s.c.Click(ctx(t), protocol.ClickArgs{Guard: guard(o), Point: outside})
	wantCode(t, err, protocol.CodeOutsideWindow)
}

// TestFocusChangeRefusesInput moves focus to another window after an
// observation: the next input is refused with the window that has focus
// now, nothing is typed, and the calculator works again once focus is back.
func TestFocusChangeRefusesInput(t *testing.T) {
	s := newSession(t)
	s.openCalculator()
	o := s.observeUntil(func(*protocol.Observation) bool { return true })
	other := s.d.FocusNewWindow(t)

	_, err := s.c.Click(ctx(t), protocol.ClickArgs{Guard: guard(o), Element: target(find(o, "button", "7"))})
	e := wantCode(t, err, protocol.CodeFocusChanged)
	if e.Window == nil || e.Window.ID != other || e.Window.Fingerprint == o.Window.Fingerprint {
		t.Fatalf("the refusal names window %+v, want %s with another fingerprint than %s", e.Window, other, o.Window.Fingerprint)
	}
	if e.InputUncertain {
		t.Fatal("a refused input says it may have happened")
	}
	t.Logf("refused: %s (observed %s, focused %s)", e.Message, o.Window.Fingerprint, e.Window.Fingerprint)
	_, err = s.c.Press(ctx(t), protocol.PressArgs{Guard: guard(o), Key: "7"})
	wantCode(t, err, protocol.CodeFocusChanged)
	_, err = s.c.Observe(ctx(t), calculator)
	wantCode(t, err, protocol.CodeWrongApp)

	s.d.Focus(t, o.Window.ID)
	o = s.observeUntil(func(*protocol.Observation) bool { return true })
	if display(o) != "" {
		t.Fatalf("the entry reads %q after refused input, want it empty", display(o))
	}
}

// TestOpenByName opens the calculator by its exact name in another case;
// an ambiguous name is refused with its candidates and starts nothing; an
// unknown id and an unknown name are refused.
func TestOpenByName(t *testing.T) {
	s := newSession(t)
	marker := filepath.Join(s.d.Dir, "launched")
	s.d.AddApp(t, "test.twin.one", "Twin Tool", "touch "+marker)
	s.d.AddApp(t, "test.twin.two", "twin tool", "touch "+marker)

	opened, err := s.c.Open(ctx(t), protocol.OpenArgs{Name: "CALCULATOR"})
	if err != nil {
		t.Fatalf("open by name: %v", err)
	}
	if opened.App.ID != calculator || opened.Window.AppID != calculator {
		t.Fatalf("open by name answered %+v", opened)
	}

	_, err = s.c.Open(ctx(t), protocol.OpenArgs{Name: "Twin Tool"})
	e := wantCode(t, err, protocol.CodeAppAmbiguous)
	var ids []string
	for _, c := range e.Candidates {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != "test.twin.one,test.twin.two" || !strings.Contains(e.Message, "test.twin.one") {
		t.Fatalf("candidates %v in %q, want both twins", ids, e.Message)
	}
	if _, err := os.Stat(marker); !os.IsNotExist(err) {
		t.Fatal("searching by name launched an app")
	}

	_, err = s.c.Open(ctx(t), protocol.OpenArgs{ID: "org.example.DoesNotExist"})
	wantCode(t, err, protocol.CodeAppNotFound)
	_, err = s.c.Open(ctx(t), protocol.OpenArgs{Name: "No Such App"})
	wantCode(t, err, protocol.CodeAppNotFound)
}

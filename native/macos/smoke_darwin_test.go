//go:build darwin

package macos_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

const calculatorID = "com.apple.calculator"

// TestCalculatorSmoke drives the built, signed helper through its real
// standard input and output against the Mac's own Calculator: the probe
// must be ready, then it opens Calculator, observes its window, clicks the
// buttons 2, +, 2 and = by ref and reads 4 from a fresh observation.
//
// It runs only with BUDDI_MAC_SMOKE=1, as it takes over the Mac's focus,
// and against the helper at BUDDI_MAC_HELPER (default bin/buddi-computer
// from the repository root): the binary that holds the grants.
func TestCalculatorSmoke(t *testing.T) {
	if os.Getenv("BUDDI_MAC_SMOKE") != "1" {
		t.Skip("set BUDDI_MAC_SMOKE=1 to drive Calculator with the built helper (see the README)")
	}
	bin := os.Getenv("BUDDI_MAC_HELPER")
	if bin == "" {
		bin = filepath.Join("..", "..", "bin", "buddi-computer")
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no helper at %s; build it with native/macos/sign.sh bin/buddi-computer, or set BUDDI_MAC_HELPER", bin)
	}
	c := &protocol.Client{Path: bin}

	perm, err := c.Probe(smokeCtx(t))
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	for _, ch := range perm.Checks {
		t.Logf("probe %s ok=%v: %s", ch.Name, ch.OK, ch.Detail)
	}
	if perm.Platform != "macos" || !perm.Ready {
		var missing []string
		for _, ch := range perm.Checks {
			if !ch.OK {
				missing = append(missing, ch.Detail)
			}
		}
		t.Fatalf("the helper is not ready on this Mac: %s", strings.Join(missing, " "))
	}

	if b, err := exec.Command("open", "-a", "Calculator").CombinedOutput(); err != nil {
		t.Fatalf("open -a Calculator: %v\n%s", err, b)
	}
	t.Cleanup(func() { _ = exec.Command("osascript", "-e", `quit app "Calculator"`).Run() })
	opened, err := c.Open(smokeCtx(t), protocol.OpenArgs{ID: calculatorID})
	if err != nil {
		t.Fatalf("open %s through the helper: %v", calculatorID, err)
	}
	if opened.App.ID != calculatorID || opened.Window.AppID != calculatorID {
		t.Fatalf("open answered %+v, want Calculator focused", opened)
	}

	o := observeCalculator(t, c, func(o *protocol.Observation) bool { return button(o, equalsNames) != nil })
	if o.Window.PID == 0 || len(o.Screenshot.Data) == 0 {
		t.Fatalf("observed window %+v with a %d-byte screenshot, want Calculator's with its picture", o.Window, len(o.Screenshot.Data))
	}
	// Clear what an earlier session left on the display.
	for range 2 {
		if _, err := c.Press(smokeCtx(t), protocol.PressArgs{Guard: guardOf(o), Key: "Escape"}); err != nil {
			t.Fatalf("press Escape: %v", err)
		}
		o = observeCalculator(t, c, func(*protocol.Observation) bool { return true })
	}
	if shows(o, "4") {
		t.Fatalf("the display reads 4 before any button was clicked: %q", texts(o))
	}

	for _, names := range [][]string{twoNames, plusNames, twoNames, equalsNames} {
		n := button(o, names)
		if n == nil {
			t.Fatalf("no button named any of %q; the buttons are %q", names, buttonNames(o))
		}
		el := &protocol.ElementTarget{Ref: n.Ref, Locator: n.Locator, Fingerprint: n.Fingerprint}
		if _, err := c.Click(smokeCtx(t), protocol.ClickArgs{Guard: guardOf(o), Element: el}); err != nil {
			t.Fatalf("click %s (%s): %v", n.Ref, n.Name, err)
		}
		o = observeCalculator(t, c, func(*protocol.Observation) bool { return true })
	}
	observeCalculator(t, c, func(o *protocol.Observation) bool { return shows(o, "4") })
}

// Calculator's button names differ between macOS releases.
var (
	twoNames    = []string{"2", "two"}
	plusNames   = []string{"+", "Add", "add", "plus"}
	equalsNames = []string{"=", "Equals", "equals"}
)

func smokeCtx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

func guardOf(o *protocol.Observation) protocol.Guard {
	return protocol.Guard{App: o.Window.AppID, Window: o.Window.Fingerprint}
}

// observeCalculator observes Calculator until ok holds, as an app fills in
// its tree in its own time.
func observeCalculator(t *testing.T, c *protocol.Client, ok func(*protocol.Observation) bool) *protocol.Observation {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		o, err := c.Observe(smokeCtx(t), calculatorID)
		if err == nil && ok(o) {
			return o
		}
		last = err
		if err == nil {
			last = fmt.Errorf("the observation did not show it yet; its texts are %q", texts(o))
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no observation of Calculator showed what was awaited within 30 seconds: %v", last)
	return nil
}

// button returns the first button whose name is one of names.
func button(o *protocol.Observation, names []string) *protocol.Node {
	for i := range o.Nodes {
		if n := &o.Nodes[i]; n.Role == "button" && slices.Contains(names, n.Name) {
			return n
		}
	}
	return nil
}

func buttonNames(o *protocol.Observation) []string {
	var names []string
	for _, n := range o.Nodes {
		if n.Role == "button" {
			names = append(names, n.Name)
		}
	}
	return names
}

// texts are what the window shows outside its buttons: the display.
func texts(o *protocol.Observation) []string {
	var out []string
	for _, n := range o.Nodes {
		if n.Role != "button" && (n.Name != "" || n.Value != "") {
			out = append(out, strings.TrimSpace(n.Name+" "+n.Value))
		}
	}
	return out
}

// shows reports whether a node other than a button reads want.
func shows(o *protocol.Observation, want string) bool {
	for _, n := range o.Nodes {
		if n.Role != "button" && (n.Name == want || n.Value == want) {
			return true
		}
	}
	return false
}

package linuxtest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Focus gives keyboard focus to the window with the helper's id (such as
// x11:0x200004), as a person clicking into it would.
func (d *Desktop) Focus(t testing.TB, windowID string) {
	t.Helper()
	id, err := strconv.ParseUint(strings.TrimPrefix(windowID, "x11:0x"), 16, 32)
	if err != nil {
		t.Fatalf("%q is not an X window id", windowID)
	}
	c := d.dial(t)
	defer c.Close()
	if err := xproto.SetInputFocusChecked(c, xproto.InputFocusParent, xproto.Window(id), xproto.TimeCurrentTime).Check(); err != nil {
		t.Fatalf("focusing %s: %v", windowID, err)
	}
}

// FocusNewWindow maps a window of the test's own and gives it keyboard
// focus, as another app coming forward would. The window lives until the
// test ends.
func (d *Desktop) FocusNewWindow(t testing.TB) string {
	t.Helper()
	c := d.dial(t)
	t.Cleanup(c.Close)
	screen := xproto.Setup(c).DefaultScreen(c)
	w, err := xproto.NewWindowId(c)
	if err != nil {
		t.Fatal(err)
	}
	err = xproto.CreateWindowChecked(c, screen.RootDepth, w, screen.Root, 600, 100, 300, 200, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, xproto.CwBackPixel, []uint32{0x336699}).Check()
	if err != nil {
		t.Fatalf("creating a window: %v", err)
	}
	title := "Another window"
	_ = xproto.ChangePropertyChecked(c, xproto.PropModeReplace, w, xproto.AtomWmName, xproto.AtomString, 8, uint32(len(title)), []byte(title)).Check()
	if err := xproto.MapWindowChecked(c, w).Check(); err != nil {
		t.Fatal(err)
	}
	if err := xproto.SetInputFocusChecked(c, xproto.InputFocusParent, w, xproto.TimeCurrentTime).Check(); err != nil {
		t.Fatalf("focusing the new window: %v", err)
	}
	return "x11:0x" + strconv.FormatUint(uint64(w), 16)
}

func (d *Desktop) dial(t testing.TB) *xgb.Conn {
	t.Helper()
	c, err := xgb.NewConnDisplay(d.Display)
	if err != nil {
		t.Fatalf("connecting to the test display: %v", err)
	}
	return c
}

package linux

import (
	"errors"
	"io"
	"log"
	"strings"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"

	"github.com/buddi-dev/buddi/native/protocol"
)

func init() {
	// xgb logs to stderr on its own; the helper's only output is its answer.
	xgb.Logger = log.New(io.Discard, "", 0)
}

// display is one connection to the X server.
type display struct {
	c     *xgb.Conn
	setup *xproto.SetupInfo
	root  xproto.Window
	xtest bool
	atoms map[string]xproto.Atom
	per   int // keysyms per keycode, once a keymap was read
}

func dialDisplay(name string) (*display, error) {
	if name == "" {
		return nil, protocol.Errorf(protocol.CodeNoDisplay, "No X display is set for the helper (DISPLAY is empty); start buddi inside the desktop session.")
	}
	c, err := xgb.NewConnDisplay(name)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeNoDisplay, "The X display %s cannot be reached; start buddi inside the desktop session.", name).WithDetail(err)
	}
	d := &display{c: c, setup: xproto.Setup(c), atoms: map[string]xproto.Atom{}}
	d.root = d.setup.DefaultScreen(c).Root
	d.xtest = xtest.Init(c) == nil
	return d, nil
}

func (d *display) close() { d.c.Close() }

func (d *display) atom(name string) xproto.Atom {
	if a, ok := d.atoms[name]; ok {
		return a
	}
	r, err := xproto.InternAtom(d.c, true, uint16(len(name)), name).Reply()
	if err != nil {
		return xproto.AtomNone
	}
	d.atoms[name] = r.Atom
	return r.Atom
}

// prop reads up to 64 KiB of a window property.
func (d *display) prop(w xproto.Window, name string) (*xproto.GetPropertyReply, error) {
	a := d.atom(name)
	if a == xproto.AtomNone {
		return nil, errors.New("no such atom " + name)
	}
	r, err := xproto.GetProperty(d.c, false, w, a, xproto.GetPropertyTypeAny, 0, 16<<10).Reply()
	if err != nil {
		return nil, err
	}
	if r.ValueLen == 0 {
		return nil, errors.New("no property " + name)
	}
	return r, nil
}

// text reads a string property (UTF8_STRING or STRING).
func (d *display) text(w xproto.Window, name string) string {
	r, err := d.prop(w, name)
	if err != nil || r.Format != 8 {
		return ""
	}
	return strings.TrimRight(string(r.Value), "\x00")
}

// strings reads a list of NUL-separated strings, such as WM_CLASS.
func (d *display) strings(w xproto.Window, name string) []string {
	s := d.text(w, name)
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

// cardinals reads a 32-bit property.
func (d *display) cardinals(w xproto.Window, name string) []uint32 {
	r, err := d.prop(w, name)
	if err != nil || r.Format != 32 {
		return nil
	}
	out := make([]uint32, 0, len(r.Value)/4)
	for i := 0; i+4 <= len(r.Value); i += 4 {
		out = append(out, xgb.Get32(r.Value[i:])) // xgb asks the server for little-endian values
	}
	return out
}

// sync waits until the server has processed every request sent so far.
func (d *display) sync() error {
	_, err := xproto.GetInputFocus(d.c).Reply()
	return err
}

package linux

import (
	"github.com/jezek/xgb/xproto"

	"github.com/buddi-dev/buddi/native/protocol"
)

// X's special focus values.
const (
	focusNone        = 0
	focusPointerRoot = 1
)

// focusedClient returns the top-level client window that holds keyboard
// focus: the focus window or its nearest ancestor a window manager marked
// with WM_STATE, else the ancestor just below the root.
func (d *display) focusedClient() (xproto.Window, error) {
	f, err := xproto.GetInputFocus(d.c).Reply()
	if err != nil {
		return 0, protocol.Errorf(protocol.CodeNoDisplay, "The X display stopped answering; check the desktop session.").WithDetail(err)
	}
	if f.Focus == focusNone || f.Focus == focusPointerRoot || f.Focus == d.root {
		return 0, protocol.Errorf(protocol.CodeNoFocusedWindow, "No window has keyboard focus; open the app, or take over and click into its window.")
	}
	return d.topLevel(f.Focus)
}

// topLevel walks up from w to the client window that holds it.
func (d *display) topLevel(w xproto.Window) (xproto.Window, error) {
	for range 64 {
		if len(d.cardinals(w, "WM_STATE")) > 0 {
			return w, nil
		}
		t, err := xproto.QueryTree(d.c, w).Reply()
		if err != nil {
			return 0, protocol.Errorf(protocol.CodeNoFocusedWindow, "The focused window closed while the helper looked at it; observe again.").WithDetail(err)
		}
		if t.Parent == d.root || t.Parent == 0 {
			return d.clientBelow(w), nil
		}
		w = t.Parent
	}
	return 0, protocol.Errorf(protocol.CodeNoFocusedWindow, "The focused window is nested too deeply to find its top level; click into the app's main window.")
}

// clientBelow returns the child of a window manager's frame that carries
// WM_STATE, or frame itself when there is none (no window manager).
func (d *display) clientBelow(frame xproto.Window) xproto.Window {
	t, err := xproto.QueryTree(d.c, frame).Reply()
	if err != nil {
		return frame
	}
	for _, c := range t.Children {
		if len(d.cardinals(c, "WM_STATE")) > 0 {
			return c
		}
	}
	return frame
}

// geometry is where w is on the root window and how big it is.
func (d *display) geometry(w xproto.Window) (protocol.Rect, error) {
	g, err := xproto.GetGeometry(d.c, xproto.Drawable(w)).Reply()
	if err != nil {
		return protocol.Rect{}, err
	}
	t, err := xproto.TranslateCoordinates(d.c, w, d.root, 0, 0).Reply()
	if err != nil {
		return protocol.Rect{}, err
	}
	return protocol.Rect{X: int(t.DstX), Y: int(t.DstY), W: int(g.Width), H: int(g.Height)}, nil
}

// clients lists the mapped top-level client windows, from the window
// manager's list when there is one, else the root's mapped children.
func (d *display) clients() []xproto.Window {
	var out []xproto.Window
	if list := d.cardinals(d.root, "_NET_CLIENT_LIST"); len(list) > 0 {
		for _, w := range list {
			out = append(out, xproto.Window(w))
		}
		return out
	}
	t, err := xproto.QueryTree(d.c, d.root).Reply()
	if err != nil {
		return nil
	}
	for _, w := range t.Children {
		a, err := xproto.GetWindowAttributes(d.c, w).Reply()
		if err == nil && a.MapState == xproto.MapStateViewable && !a.OverrideRedirect {
			out = append(out, d.clientBelow(w))
		}
	}
	return out
}

// raise brings w forward and gives it focus: through the window manager
// when one runs, else directly.
func (d *display) raise(w xproto.Window) error {
	if len(d.cardinals(d.root, "_NET_SUPPORTING_WM_CHECK")) > 0 {
		ev := xproto.ClientMessageEvent{Format: 32, Window: w, Type: d.atom("_NET_ACTIVE_WINDOW"),
			Data: xproto.ClientMessageDataUnionData32New([]uint32{2, 0, 0, 0, 0})} // 2: a pager, which window managers obey
		mask := uint32(xproto.EventMaskSubstructureRedirect | xproto.EventMaskSubstructureNotify)
		if err := xproto.SendEventChecked(d.c, false, d.root, mask, string(ev.Bytes())).Check(); err != nil {
			return err
		}
		return d.sync()
	}
	if err := xproto.ConfigureWindowChecked(d.c, w, xproto.ConfigWindowStackMode, []uint32{xproto.StackModeAbove}).Check(); err != nil {
		return err
	}
	if err := xproto.SetInputFocusChecked(d.c, xproto.InputFocusParent, w, xproto.TimeCurrentTime).Check(); err != nil {
		return err
	}
	return d.sync()
}

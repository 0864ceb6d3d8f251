package linux

import (
	"context"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"

	"github.com/jezek/xgb/xproto"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

var _ helper.Window = (*window)(nil)

// window is the focused top-level X window and, when the app is
// accessible, its tree.
type window struct {
	d     *display
	id    xproto.Window
	info  protocol.Window // Frame is the part the app draws: the X window less its invisible margins
	inset image.Point     // where that part starts inside the X window
	tree  *tree
	err   error // why there is no tree
}

// describe reads what X says about client window w and finds its
// accessibility tree.
func (p *Platform) describe(ctx context.Context, d *display, w xproto.Window) (*window, error) {
	win, outer, err := p.identify(ctx, d, w)
	if err != nil {
		return nil, err
	}
	win.tree, win.err = p.findTree(ctx, d, win.info.PID, win.info.Title)
	win.frame(outer)
	return win, nil
}

// identify reads what X says about client window w: its id, title,
// process and app, and where it is.
func (p *Platform) identify(ctx context.Context, d *display, w xproto.Window) (*window, protocol.Rect, error) {
	outer, err := d.geometry(w)
	if err != nil {
		return nil, outer, protocol.Errorf(protocol.CodeNoFocusedWindow, "The focused window closed while the helper looked at it; observe again.").WithDetail(err)
	}
	win := &window{d: d, id: w}
	win.info = protocol.Window{ID: fmt.Sprintf("x11:0x%x", uint32(w)), Title: d.text(w, "_NET_WM_NAME")}
	if win.info.Title == "" {
		win.info.Title = d.text(w, "WM_NAME")
	}
	if pid := d.cardinals(w, "_NET_WM_PID"); len(pid) == 1 {
		win.info.PID = int(pid[0])
	}
	wa := windowApp{gtkID: d.text(w, "_GTK_APPLICATION_ID"), class: d.strings(w, "WM_CLASS")}
	if exe, err := os.Readlink("/proc/" + strconv.Itoa(win.info.PID) + "/exe"); err == nil && win.info.PID > 0 {
		wa.exe = filepath.Base(exe)
	}
	if apps, err := p.apps(ctx); err == nil {
		if e, ok := appOf(wa, apps); ok {
			win.info.AppID, win.info.AppName = e.ID, e.Name
		}
	}
	return win, outer, nil
}

// frame works out the part of the X window the app draws into. GTK puts
// invisible margins (shadows, resize borders) around it: _GTK_FRAME_EXTENTS
// says how wide when a compositor runs; otherwise the accessible frame's
// size tells, and the margins are the same on every side.
func (w *window) frame(outer protocol.Rect) {
	size := image.Pt(outer.W, outer.H)
	if ext := w.d.cardinals(w.id, "_GTK_FRAME_EXTENTS"); len(ext) == 4 {
		w.inset = image.Pt(int(ext[0]), int(ext[2]))
		size = image.Pt(outer.W-int(ext[0]+ext[1]), outer.H-int(ext[2]+ext[3]))
	} else if w.tree != nil && w.tree.origin.W > 0 && w.tree.origin.H > 0 &&
		w.tree.origin.W <= outer.W && w.tree.origin.H <= outer.H {
		w.inset = image.Pt((outer.W-w.tree.origin.W)/2, (outer.H-w.tree.origin.H)/2)
		size = image.Pt(w.tree.origin.W, w.tree.origin.H)
	}
	if size.X <= 0 || size.Y <= 0 {
		w.inset, size = image.Point{}, image.Pt(outer.W, outer.H)
	}
	w.info.Frame = protocol.Rect{X: outer.X + w.inset.X, Y: outer.Y + w.inset.Y, W: size.X, H: size.Y}
	if w.tree != nil {
		w.tree.frame = w.info.Frame
	}
}

func (w *window) Info() protocol.Window { return w.info }

// Root is the window's accessible frame. The app's cache is read here, for
// the walk that follows, and not for calls that touch one element.
func (w *window) Root(ctx context.Context) (helper.Element, error) {
	if w.tree == nil {
		return nil, w.err
	}
	w.tree.cache = w.tree.bus.readCache(ctx, w.tree.app)
	return &element{t: w.tree, ref: w.tree.root}, nil
}

// Resolve finds an element by locator and checks it is inside this window.
func (w *window) Resolve(ctx context.Context, locator string) (helper.Element, error) {
	if w.tree == nil {
		return nil, w.err
	}
	r, ok := parseLocator(locator)
	if !ok || r.Name != w.tree.app {
		return nil, protocol.Errorf(protocol.CodeTargetGone, "The target belongs to another app or an earlier run of this one; observe again and use a fresh ref.")
	}
	cur := r
	for range 128 {
		if cur == w.tree.root {
			return &element{t: w.tree, ref: r}, nil
		}
		parent, err := w.tree.bus.parent(ctx, cur)
		if err != nil || parent.Path == "/org/a11y/atspi/null" || parent.Path == rootPath || parent == cur {
			break
		}
		cur = parent
	}
	return nil, protocol.Errorf(protocol.CodeTargetGone, "The target is gone or lies in another window; observe again and use a fresh ref.")
}

// Capture reads the window's pixels, one X pixel to a point.
func (w *window) Capture(context.Context) (*image.RGBA, float64, error) {
	img, err := w.d.capture(w.id, protocol.Rect{X: w.inset.X, Y: w.inset.Y, W: w.info.Frame.W, H: w.info.Frame.H})
	return img, 1, err
}

// Click clicks at a window-relative point.
func (w *window) Click(_ context.Context, x, y int) error {
	return w.d.click(w.info.Frame.X+x, w.info.Frame.Y+y)
}

// Typable checks that the keyboard can type text, changing nothing.
func (w *window) Typable(_ context.Context, text string) error {
	_, _, err := w.d.plan(text)
	return err
}

// Type types text with XTEST key events.
func (w *window) Type(_ context.Context, text string) error { return w.d.typeText(text) }

// Key presses one allowed key.
func (w *window) Key(_ context.Context, key string) error { return w.d.key(key) }

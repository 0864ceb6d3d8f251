package linux

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

var _ helper.Element = (*element)(nil)

// tree is one window's accessibility tree on the bus.
type tree struct {
	bus    *bus
	d      *display
	app    string        // the app's connection on the bus
	root   ref           // the window's accessible frame
	origin protocol.Rect // the frame's own box, in the coordinates its elements use
	frame  protocol.Rect // the window on the screen (Window.Frame)
	cache  map[dbus.ObjectPath]cached
}

// element is one accessible object of a tree.
type element struct {
	t   *tree
	ref ref
}

// Locator is the object's connection and path, such as
// :1.42/org/gnome/Calculator/a11y/4b40…; both stay the same while the app runs.
func (e *element) Locator() string { return e.ref.Name + string(e.ref.Path) }

// parseLocator splits a locator back into a ref.
func parseLocator(s string) (ref, bool) {
	i := strings.IndexByte(s, '/')
	if i <= 0 || !dbus.ObjectPath(s[i:]).IsValid() {
		return ref{}, false
	}
	return ref{Name: s[:i], Path: dbus.ObjectPath(s[i:])}, true
}

// toolkitNames are names GTK 4 gives elements that have none: its widget
// type names, which tell an agent nothing.
var toolkitNames = regexp.MustCompile(`^(Gtk|Adw|Gdk)[A-Z][A-Za-z0-9]*$`)

// basics reads role, name, state and interfaces, from the cache when it
// has the object.
func (e *element) basics(ctx context.Context) (cached, error) {
	if c, ok := e.t.cache[e.ref.Path]; ok && e.ref.Name == e.t.app {
		return c, nil
	}
	var c cached
	var err error
	if c.role, err = e.t.bus.role(ctx, e.ref); err != nil {
		return c, err
	}
	if c.name, err = e.t.bus.name(ctx, e.ref); err != nil {
		return c, err
	}
	if c.state, err = e.t.bus.state(ctx, e.ref); err != nil {
		return c, err
	}
	c.ifaces, err = e.t.bus.interfaces(ctx, e.ref)
	return c, err
}

// Info reads what an observation shows of the element.
func (e *element) Info(ctx context.Context) (helper.ElementInfo, error) {
	c, err := e.basics(ctx)
	if err != nil {
		return helper.ElementInfo{}, err
	}
	info := helper.ElementInfo{
		Role:     roleName(c.role),
		Name:     c.name,
		Visible:  c.state.visible(),
		Secure:   c.role == rolePasswordText,
		Editable: c.ifaces[ifaceEditableText] && c.state.has(stateEditable),
		States:   c.state.flags(),
	}
	if toolkitNames.MatchString(info.Name) {
		info.Name = ""
	}
	if !info.Visible {
		return info, nil
	}
	if c.ifaces[ifaceText] && !info.Secure && (info.Editable || info.Role == "textbox" || info.Role == "spinbutton") {
		info.Value, _ = e.t.bus.text(ctx, e.ref, protocol.MaxValueRunes+1)
	}
	return info, nil
}

// Box is the element's extents, relative to its window's frame.
func (e *element) Box(ctx context.Context) (protocol.Rect, error) {
	box, err := e.t.bus.extents(ctx, e.ref)
	if err != nil {
		return protocol.Rect{}, err
	}
	return protocol.Rect{X: box.X - e.t.origin.X, Y: box.Y - e.t.origin.Y, W: box.W, H: box.H}, nil
}

// Children are the element's children.
func (e *element) Children(ctx context.Context) ([]helper.Element, error) {
	kids, err := e.t.bus.children(ctx, e.ref)
	if err != nil {
		return nil, err
	}
	out := make([]helper.Element, 0, len(kids))
	for _, k := range kids {
		out = append(out, &element{t: e.t, ref: k})
	}
	return out, nil
}

// pressActions are the action names that press an element.
var pressActions = map[string]bool{"click": true, "press": true, "activate": true, "jump": true, "toggle": true, "open": true}

// Press runs the element's own press action, when it has one.
func (e *element) Press(ctx context.Context) (bool, error) {
	var acts []struct{ Name, Desc, Key string }
	if err := e.t.bus.call(ctx, e.ref, ifaceAction+".GetActions", []any{&acts}); err != nil {
		return false, nil // no Action interface: the helper clicks instead
	}
	for i, a := range acts {
		if !pressActions[strings.ToLower(a.Name)] {
			continue
		}
		var ok bool
		if err := e.t.bus.call(ctx, e.ref, ifaceAction+".DoAction", []any{&ok}, int32(i)); err != nil {
			return false, err
		}
		return ok, nil
	}
	return false, nil
}

// Focus gives the element keyboard focus: through the accessibility API
// when the toolkit supports it (GTK 4 does not), else by clicking the
// middle of its visible part, as a person would.
func (e *element) Focus(ctx context.Context) error {
	if e.focused(ctx) {
		return nil
	}
	var ok bool
	err := e.t.bus.call(ctx, e.ref, ifaceComponent+".GrabFocus", []any{&ok})
	if err == nil && ok && e.waitFocused(ctx) {
		return nil
	}
	box, err := e.Box(ctx)
	if err != nil {
		return protocol.Errorf(protocol.CodeNotEditable, "The field has no position to click for focus, so nothing was typed; click it first, then fill.").WithDetail(err)
	}
	x, y, inside := helper.VisibleCentre(box, e.t.frame.W, e.t.frame.H)
	if !inside {
		return protocol.Errorf(protocol.CodeTargetOffscreen, "The field is outside the window, so nothing was typed; scroll it into view, observe again and retry.")
	}
	if err := e.t.d.click(e.t.frame.X+x, e.t.frame.Y+y); err != nil {
		return err
	}
	if !e.waitFocused(ctx) {
		return errors.New("the field did not take focus after a click on it")
	}
	return nil
}

func (e *element) focused(ctx context.Context) bool {
	st, err := e.t.bus.state(ctx, e.ref)
	return err == nil && st.has(stateFocused)
}

// waitFocused waits up to a second for the element to report focus; the
// toolkit applies focus on its own main loop.
func (e *element) waitFocused(ctx context.Context) bool {
	deadline := time.Now().Add(time.Second)
	for !e.focused(ctx) {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// maxClear is the most text Clear removes with Backspace.
const maxClear = 4 * protocol.MaxFillRunes

// Clear puts the caret at the end of the element's text and deletes it
// with Backspace key events.
func (e *element) Clear(ctx context.Context) error {
	n, err := e.t.bus.charCount(ctx, e.ref)
	if err != nil || n == 0 {
		return nil // nothing known to remove: typing goes where the caret is
	}
	if n > maxClear {
		return protocol.Errorf(protocol.CodeNotEditable, "The field holds %d characters, too many to replace by keyboard; clear it yourself, then fill.", n)
	}
	var ok bool
	if err := e.t.bus.call(ctx, e.ref, ifaceText+".SetCaretOffset", []any{&ok}, int32(n)); err != nil || !ok {
		if err := e.t.d.key("End"); err != nil {
			return err
		}
	}
	return e.t.d.repeat("Backspace", n)
}

package macos

import (
	"context"
	"errors"
	"strconv"
	"time"
	"unsafe"

	"github.com/buddi-dev/buddi/native/helper"
	"github.com/buddi-dev/buddi/native/protocol"
)

var _ helper.Element = (*element)(nil)

// element is one AX element of the window, with its path from it.
type element struct {
	w    *window
	ref  uintptr
	path []int
	box  *protocol.Rect // read with Info
}

func (e *element) Locator() string { return locator(e.path) }

// infoAttrs are read in one Accessibility call per element.
var infoAttrs = []string{"AXRole", "AXSubrole", "AXTitle", "AXDescription", "AXValue",
	"AXPosition", "AXSize", "AXEnabled", "AXFocused", "AXSelected", "AXExpanded"}

// Info reads the element's role, name, value, box and states.
func (e *element) Info(context.Context) (helper.ElementInfo, error) {
	names := make([]uintptr, len(infoAttrs))
	for i, n := range infoAttrs {
		names[i] = cfstr(n)
	}
	arr := arrayOf(names)
	defer cfRelease(arr)
	var vals uintptr
	if code := axUIElementCopyMultipleAttributeVals(e.ref, arr, 0, &vals); code != axSuccess {
		return helper.ElementInfo{}, axError{"reading the element", code}
	}
	defer cfRelease(vals)
	v := map[string]uintptr{}
	for i, val := range items(vals, len(infoAttrs)) {
		if !(isAXValue(val) && axValueGetType(val) == axValueAXError) {
			v[infoAttrs[i]] = val
		}
	}
	role, subrole := goString(v["AXRole"]), goString(v["AXSubrole"])
	info := helper.ElementInfo{Role: roleOf(role, subrole), Secure: secure(role, subrole), Editable: editable(role, subrole), Visible: true}
	info.Name = firstOf(goString(v["AXTitle"]), goString(v["AXDescription"]))
	value := valueText(v["AXValue"])
	switch {
	case role == "AXStaticText" && info.Name == "":
		info.Name = value
	case !info.Secure && (info.Editable || info.Role == "slider" || info.Role == "progressbar" || info.Role == "spinbutton"):
		info.Value = value
	}
	box, visible := e.boxOf(v["AXPosition"], v["AXSize"])
	e.box, info.Visible = &box, visible
	info.States = statesOf(v)
	return info, nil
}

// Box is the element's window-relative box, as Info read it.
func (e *element) Box(ctx context.Context) (protocol.Rect, error) {
	if e.box == nil {
		if _, err := e.Info(ctx); err != nil {
			return protocol.Rect{}, err
		}
	}
	return *e.box, nil
}

// boxOf is the element's window-relative box, and whether any of it is in
// the window (an element off screen shows nothing, nor do its children).
func (e *element) boxOf(posV, sizeV uintptr) (protocol.Rect, bool) {
	pos, ok1 := pointOf(posV)
	size, ok2 := sizeOf(sizeV)
	if !ok1 || !ok2 {
		return protocol.Rect{}, true
	}
	r := protocol.Rect{X: int(pos.X - e.w.origin.X), Y: int(pos.Y - e.w.origin.Y), W: int(size.W), H: int(size.H)}
	if r.W <= 0 || r.H <= 0 {
		return r, true
	}
	_, _, in := helper.VisibleCentre(r, e.w.info.Frame.W, e.w.info.Frame.H)
	return r, in
}

func statesOf(v map[string]uintptr) []protocol.State {
	var out []protocol.State
	flag := func(name string) (set, val bool) {
		ref, ok := v[name]
		return ok && isBool(ref), ok && isBool(ref) && cfBooleanGetValue(ref)
	}
	if _, on := flag("AXFocused"); on {
		out = append(out, protocol.StateFocused)
	}
	if set, on := flag("AXEnabled"); set && !on {
		out = append(out, protocol.StateDisabled)
	}
	if _, on := flag("AXSelected"); on {
		out = append(out, protocol.StateSelected)
	}
	if set, on := flag("AXExpanded"); set && on {
		out = append(out, protocol.StateExpanded)
	} else if set {
		out = append(out, protocol.StateCollapsed)
	}
	return out
}

// valueText renders an AXValue that is text or a number.
func valueText(ref uintptr) string {
	if isString(ref) {
		return goString(ref)
	}
	if n, ok := goInt(ref); ok {
		return strconv.FormatInt(n, 10)
	}
	return ""
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// Children are the element's children, with their paths.
func (e *element) Children(context.Context) ([]helper.Element, error) {
	_, kids, err := children(e.ref, maxChildren)
	if err != nil {
		return nil, err
	}
	out := make([]helper.Element, len(kids))
	for i, k := range kids {
		out[i] = &element{w: e.w, ref: cfRetain(k), path: child(e.path, i)}
	}
	return out, nil
}

// Press performs AXPress when the element offers it.
func (e *element) Press(context.Context) (bool, error) {
	switch code := axUIElementPerformAction(e.ref, cfstr("AXPress")); code {
	case axSuccess:
		return true, nil
	case axErrActionUnsupported:
		return false, nil
	default:
		return false, axError{"pressing", code}
	}
}

// Focus sets AXFocused, else clicks the middle of the element.
func (e *element) Focus(ctx context.Context) error {
	if attrBool(e.ref, "AXFocused") {
		return nil
	}
	if axUIElementSetAttributeValue(e.ref, cfstr("AXFocused"), kCFBooleanTrue) == axSuccess && e.waitFocused(ctx) {
		return nil
	}
	box, err := e.Box(ctx)
	x, y, in := helper.VisibleCentre(box, e.w.info.Frame.W, e.w.info.Frame.H)
	if err != nil || !in {
		return protocol.Errorf(protocol.CodeTargetOffscreen, "The field has no visible point to click for focus, so nothing was typed; scroll it into view, observe again and retry.")
	}
	if err := e.w.Click(ctx, x, y); err != nil {
		return err
	}
	if !e.waitFocused(ctx) {
		return errors.New("the field did not take focus after a click on it")
	}
	return nil
}

// waitFocused waits up to a second for the element to report focus.
func (e *element) waitFocused(ctx context.Context) bool {
	deadline := time.Now().Add(time.Second)
	for !attrBool(e.ref, "AXFocused") {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// Clear selects all of the field's text, so that typing replaces it.
func (e *element) Clear(context.Context) error {
	nv, err := attr(e.ref, "AXNumberOfCharacters")
	if err != nil {
		return nil // no text known: typing goes where the caret is
	}
	n, _ := goInt(nv)
	cfRelease(nv)
	if n == 0 {
		return nil
	}
	r := cfRange{Location: 0, Length: int(n)}
	val := axValueCreate(axValueCFRange, unsafe.Pointer(&r))
	if val == 0 {
		return protocol.Errorf(protocol.CodeNotEditable, "The field's text could not be selected, so nothing was typed; clear it yourself, then fill.")
	}
	defer cfRelease(val)
	if code := axUIElementSetAttributeValue(e.ref, cfstr("AXSelectedTextRange"), val); code != axSuccess {
		return protocol.Errorf(protocol.CodeNotEditable, "The field's text could not be selected, so nothing was typed; clear it yourself, then fill.").WithDetail(axError{"selecting its text", code})
	}
	return nil
}

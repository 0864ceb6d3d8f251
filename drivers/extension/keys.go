package extension

import (
	"context"
	"unicode"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
)

// namedKeys are the keys press accepts by name, with what the debugger's
// key events need: the DOM code and the Windows key code.
var namedKeys = map[string]namedKey{
	"Enter": {"Enter", 13, "\r"}, "Tab": {"Tab", 9, ""}, "Escape": {"Escape", 27, ""},
	"Backspace": {"Backspace", 8, ""}, "Delete": {"Delete", 46, ""},
	"ArrowUp": {"ArrowUp", 38, ""}, "ArrowDown": {"ArrowDown", 40, ""},
	"ArrowLeft": {"ArrowLeft", 37, ""}, "ArrowRight": {"ArrowRight", 39, ""},
	"Home": {"Home", 36, ""}, "End": {"End", 35, ""}, "PageUp": {"PageUp", 33, ""},
	"PageDown": {"PageDown", 34, ""}, "Space": {"Space", 32, " "},
}

type namedKey struct {
	code string
	vk   int
	text string
}

// oneChar reports whether key is one printable character.
func oneChar(key string) bool {
	r, n := utf8.DecodeRuneInString(key)
	return n > 0 && n == len(key) && r != utf8.RuneError && unicode.IsPrint(r)
}

// focusAnswer is the engine's focusState (input.js).
type focusAnswer struct {
	Error  string    `json:"error"`
	Edit   bool      `json:"edit"`
	Owner  bool      `json:"owner"`
	Unsure bool      `json:"unsure"`
	Info   *elemInfo `json:"info"`
	Nav    string    `json:"nav"` // the document's navMark as the focus was read
}

// press sends one allowed key, to the target when given (focused first,
// in its frame), else to what has focus, followed into frames. A key that
// types text goes only into a field buddi can see and CheckField lets
// through; a key for a target in a frame goes only when the page's focus
// reached that frame.
func (ts *Tabs) press(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	named, isNamed := namedKeys[a.Value]
	if !isNamed && !oneChar(a.Value) {
		return nil, badInput("Press takes one key: Enter, Tab, Escape, Backspace, Delete, the arrows, Home, End, PageUp, PageDown, Space, or a single character.")
	}
	in, before := at{tab: ts.current()}, ""
	body := "focus"
	if a.Target != nil {
		r, err := ts.resolve(ctx, a.Target)
		if err != nil {
			return nil, err
		}
		in, before, body = r.at, r.url, "focusref "+r.ref
	}
	var st focusAnswer
	pageURL, err := ts.probeIn(ctx, in, body, a.Target != nil, &st)
	if err != nil {
		return nil, err
	}
	if st.Error != "" && a.Target != nil {
		return nil, staleRef(a.Target.Ref, "is no longer on the page")
	}
	st, lands, err := ts.keyLands(ctx, in, st, a.Target)
	if err != nil {
		return nil, err
	}
	if err := ts.checkKey(st, a.Value, named.text, isNamed); err != nil {
		return nil, err
	}
	tab := in.tab
	mark, before, err := ts.beforeKey(ctx, in, lands, st, pageURL, before)
	if err != nil {
		return nil, err
	}
	group, err := ts.sendKey(ctx, tab, a.Value, named, isNamed)
	if err != nil {
		return nil, err
	}
	if out, err := ts.stayed(ctx, tab, mark, before, group); out != nil || err != nil {
		return out, err
	}
	return ts.settled(ctx, tab, before, group)
}

// beforeKey reads what tells whether a key moved the page: the top
// document's navMark when the key goes into it (lands, whose focus is
// st), and where the tab is, unless before (the target's page) says so.
// When st was read in the top document (in, at pageURL), its mark is the
// one before the key: the mark only counts up, so one read before the key
// serves.
func (ts *Tabs) beforeKey(ctx context.Context, in, lands at, st focusAnswer, pageURL, before string) (mark, url string, err error) {
	tab := in.tab
	top := in.frame == "" && lands.frame == ""
	if top && before == "" {
		before = pageURL
	}
	switch {
	case lands.frame != "" || st.Owner:
	case top && st.Nav != "" && before != "":
		mark = st.Nav
	default:
		var u string
		if mark, u = ts.markOf(ctx, tab); before == "" {
			before = u
		}
	}
	if before == "" {
		st, err := ts.info(ctx, tab)
		if err != nil {
			return "", "", err
		}
		before = st.URL
	}
	return mark, before, nil
}

// keyLands says where a key pressed now would land, from st, the focus
// of the document in: with no target, the page's focus followed into
// frames; with a target in a frame, that frame's focus, once the page's
// focus is seen to reach it. It returns that focus and its document.
func (ts *Tabs) keyLands(ctx context.Context, in at, st focusAnswer, tg *drivers.Target) (focusAnswer, at, error) {
	if tg == nil {
		lands, st, err := ts.followFocus(ctx, in.tab, st)
		return st, lands, err
	}
	if in.frame == "" {
		return st, in, nil
	}
	var top focusAnswer
	if err := ts.probe(ctx, in.tab, "focus", false, &top); err != nil {
		return st, in, err
	}
	lands, _, err := ts.followFocus(ctx, in.tab, top)
	if err != nil {
		return st, in, err
	}
	if lands != in {
		return st, in, fail(drivers.CodeNotAllowed, nil, "The focus did not go into the frame of "+tg.Ref+", so the key was not pressed; click the element first.")
	}
	return st, in, nil
}

// checkKey refuses a key that types text where checkText would not let it.
func (ts *Tabs) checkKey(st focusAnswer, key, namedText string, isNamed bool) error {
	text := key
	if isNamed {
		text = namedText
	}
	if text == "" || text == "\r" {
		return nil
	}
	return ts.checkText(st, text)
}

// sendKey presses and releases one key through the debugger. It returns
// the tabs of the group as they were just before the key (popup).
func (ts *Tabs) sendKey(ctx context.Context, tab int, key string, named namedKey, isNamed bool) ([]int, error) {
	down := cdp.KeyEvent{Type: cdp.KeyDown, Key: key, Text: key}
	if isNamed {
		down = cdp.KeyEvent{Type: cdp.KeyDown, Key: key, Code: named.code, WindowsVirtualKeyCode: named.vk, Text: named.text}
		if key == "Space" {
			down.Key = " "
		}
	}
	group, err := ts.inputFirst(ctx, at{tab: tab}, down)
	if err != nil {
		return nil, err
	}
	up := cdp.KeyEvent{Type: cdp.KeyUp, Key: down.Key, Code: down.Code, WindowsVirtualKeyCode: down.WindowsVirtualKeyCode}
	if err := ts.cdp(ctx, tab, up, true, nil); err != nil {
		return nil, fail(drivers.CodePartial, err, "The key press may have half happened: observe before doing anything else.")
	}
	return group, nil
}

// checkText refuses text that would land where buddi cannot see, or in a
// field CheckField refuses.
func (ts *Tabs) checkText(st focusAnswer, text string) error {
	if ts.d.cfg.CheckField == nil || !st.Edit && !st.Unsure && !st.Owner {
		return nil
	}
	if st.Unsure || st.Owner {
		return fail(drivers.CodeNotAllowed, nil, "The focus is somewhere buddi cannot see (a frame or a closed component), so the key was not typed; click the field first.")
	}
	if st.Info != nil {
		return ts.checkField(fieldOf(st.Info), text)
	}
	return nil
}

// scroll brings the target into view, or turns the wheel by DeltaY over
// the middle of the viewport.
func (ts *Tabs) scroll(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a.Target != nil {
		r, err := ts.resolve(ctx, a.Target)
		if err != nil {
			return nil, err
		}
		var p point
		if _, err := ts.evalIn(ctx, r.at, onRef(r.ref, pointBody), false, &p); err != nil {
			return nil, err
		}
		if _, err := ts.inPage(ctx, r.at, &p); err != nil {
			return nil, err
		}
		return &drivers.Outcome{Result: drivers.Done, URL: r.url}, nil
	}
	if a.DeltaY == 0 {
		return nil, badInput("Scroll needs a target or a non-zero DeltaY.")
	}
	tab := ts.current()
	var v struct{ W, H float64 }
	if err := ts.eval(ctx, tab, "({W: innerWidth, H: innerHeight})", false, &v); err != nil {
		return nil, err
	}
	wheel := cdp.MouseWheel{X: v.W / 2, Y: v.H / 2, DeltaY: float64(a.DeltaY)}
	if err := ts.cdp(ctx, tab, wheel, true, nil); err != nil {
		return nil, err
	}
	st, err := ts.info(ctx, tab)
	if err != nil {
		return nil, err
	}
	return &drivers.Outcome{Result: drivers.Done, URL: st.URL, Title: st.Title}, nil
}

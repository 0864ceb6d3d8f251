package messages

import (
	"net/url"
	"regexp"
)

// The per-action checks of the table. Each runs after the checks every
// action shares (known action, observation for mutating ones, the ref's
// shape, the value's length).

// refPattern is a page ref (e12) or, in Use my apps, an accessibility ref (ax12).
var refPattern = regexp.MustCompile(`^(e|ax)[0-9]{1,7}$`)

// MaxFindChars bounds find's text, role and name.
const MaxFindChars = 200

func validRef(ref string) bool { return refPattern.MatchString(ref) }

func checkChars(in *ActInput) error {
	if in.MaxChars < 0 || in.MaxChars > MaxDOMChars {
		return badInput("maxChars must be from 1 to %d", MaxDOMChars)
	}
	return nil
}

// MaxSelectorChars bounds dom's selector.
const MaxSelectorChars = 500

func checkDOM(in *ActInput) error {
	if len(in.Selector) > MaxSelectorChars {
		return badInput("selector must be at most %d characters", MaxSelectorChars)
	}
	return checkChars(in)
}

func needTarget(in *ActInput) error {
	if in.Target == nil {
		return badInput("%s needs a \"target\" with a ref from your latest observation, e.g. {\"ref\":\"e12\"}", in.Action)
	}
	return checkChars(in)
}

// MaxFrame bounds a target's frame number.
const MaxFrame = 64

// checkTarget checks a target's shape: a ref like e12, or a semantic match
// (by role with role and name; by link, label, placeholder or text with name).
func checkTarget(t *TargetRef) *Error {
	if t == nil {
		return nil
	}
	if t.Frame < 0 || t.Frame > MaxFrame {
		return badInput("the target's frame must be from 0 to %d; use the frame number the observation gave", MaxFrame)
	}
	if t.Point() {
		return checkPoint(t)
	}
	if t.Ref != "" {
		if !validRef(t.Ref) || t.By != "" || t.Role != "" || t.Name != "" {
			return badInput("the target ref %q is not a ref like e12; use a ref from your latest observation, alone", Clip(t.Ref, 60))
		}
		return nil
	}
	return checkSemantic(t)
}

// checkPoint checks a pixel target: both coordinates, nothing else.
func checkPoint(t *TargetRef) *Error {
	if t.X == nil || t.Y == nil || t.Ref != "" || t.By != "" || t.Role != "" || t.Name != "" || t.Frame != 0 {
		return badInput("a pixel target is {\"x\":120,\"y\":180} alone, both numbers and nothing else; or use a ref")
	}
	if *t.X < 0 || *t.Y < 0 || *t.X > MaxPixel || *t.Y > MaxPixel {
		return badInput("a pixel target's x and y must be from 0 to %d, within the latest screenshot", MaxPixel)
	}
	return nil
}

// checkSemantic checks a target named by what it is rather than by ref.
func checkSemantic(t *TargetRef) *Error {
	switch t.By {
	case ByRole:
		if t.Role == "" || t.Name == "" {
			return badInput("a target by role needs \"role\" and \"name\", e.g. {\"by\":\"role\",\"role\":\"button\",\"name\":\"Send\"}")
		}
	case ByLink, ByLabel, ByPlaceholder, ByText:
		if t.Role != "" && t.By != ByLink {
			return badInput("a target by %s takes \"name\" only; use by role to name a role", t.By)
		}
		if t.Name == "" {
			return badInput("a target by %s needs \"name\": the exact text to match", t.By)
		}
	default:
		return badInput("the target needs a ref such as e12 from your latest observation, or \"by\": role, link, label, placeholder or text")
	}
	if len(t.Name) > MaxFindChars || len(t.Role) > MaxFindChars {
		return badInput("a target's role and name are at most %d characters each", MaxFindChars)
	}
	return nil
}

func checkOpen(in *ActInput) error {
	if (in.AppID == "") == (in.App == "") {
		return badInput("open needs exactly one of \"appId\" (a bundle id) or \"app\" (an app's name)")
	}
	return checkChars(in)
}

func checkSelect(in *ActInput) error {
	if err := needTarget(in); err != nil {
		return err
	}
	if len(in.Values) == 0 {
		return badInput("select needs \"values\": the option labels or values to choose")
	}
	return nil
}

func checkPress(in *ActInput) error {
	if !validKey(in.Key) {
		return badInput("the key %q is not allowed; use Enter, Tab, Escape, Backspace, Delete, Space, an arrow, Home, End, PageUp, PageDown or one character", Clip(in.Key, 60))
	}
	return checkChars(in)
}

func checkScroll(in *ActInput) error {
	if in.Target == nil && in.DeltaY == 0 {
		return badInput("scroll needs \"deltaY\" in pixels or a \"target\" to bring into view")
	}
	return checkChars(in)
}

func checkNavigate(in *ActInput) error {
	if in.URL == "" {
		return badInput("navigate needs \"url\": an absolute http or https address")
	}
	if s := in.URLSource; s != "" && s != URLFromAgent && s != URLFromPage {
		return badInput("urlSource %q is not known; use agent or page_link", Clip(s, 60))
	}
	u, err := url.Parse(in.URL)
	if err != nil || u.Scheme == "" {
		return badInput("%q is not an absolute URL; use for example https://example.com/", Clip(in.URL, 60))
	}
	return nil
}

func checkRead(in *ActInput) error {
	for _, ref := range []string{in.Within, in.After} {
		if ref != "" && !validRef(ref) {
			return badInput("%q is not a ref like e12; use a ref from your latest observation", Clip(ref, 60))
		}
	}
	if in.After != "" && !in.FullPage && in.Within == "" {
		return badInput("after continues a fullPage or within read; send the continues object of your latest observation as it is")
	}
	if in.FullPage && in.Within != "" {
		return badInput("observe takes fullPage or within, not both")
	}
	if in.Rows != "" && (in.Within == "" || !rowRange.MatchString(in.Rows)) {
		return badInput("rows reads a range of a table's rows, such as \"12-40\", with within the table's ref")
	}
	return nil
}

// rowRange is a table's rows as observe reads them: "12" or "12-40".
var rowRange = regexp.MustCompile(`^[0-9]{1,6}(-[0-9]{1,6})?$`)

func checkFind(in *ActInput) error {
	if in.Text == "" && in.Role == "" && in.Name == "" {
		return badInput("find needs \"text\", \"role\" or \"name\", e.g. {\"action\":\"find\",\"text\":\"Next chapter\"}")
	}
	for _, s := range []string{in.Text, in.Role, in.Name} {
		if len(s) > MaxFindChars {
			return badInput("find's text, role and name are at most %d characters each", MaxFindChars)
		}
	}
	return nil
}

func checkTab(in *ActInput) error {
	switch in.Tab {
	case "list", "new":
		return nil
	case "switch", "close":
		if in.TabID == "" {
			return badInput("tab %s needs \"tabId\" from the tabs of your latest observation", in.Tab)
		}
		return nil
	}
	return badInput("tab %q is not an operation; use list, new, switch or close", Clip(in.Tab, 60))
}

func checkWait(in *ActInput) error {
	w := in.Wait
	if w == nil {
		return badInput("wait_for needs \"wait\" with one of selector, text, url, load or ref")
	}
	if w.Ref != "" && !validRef(w.Ref) {
		return badInput("wait_for's ref %q is not a ref like e12; use a ref from your latest observation", Clip(w.Ref, 60))
	}
	n := 0
	for _, set := range []bool{w.Selector != "", w.Text != "", w.URL != "", w.Load, w.Ref != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return badInput("wait_for takes exactly one of selector, text, url, load or ref, not %d", n)
	}
	if in.TimeoutMs < 0 || in.TimeoutMs > MaxWaitMs {
		return badInput("timeoutMs must be from 1 to %d", MaxWaitMs)
	}
	return nil
}

func checkScript(in *ActInput) error {
	if len(in.Steps) == 0 || len(in.Steps) > MaxScriptSteps {
		return badInput("script needs from 1 to %d \"steps\"", MaxScriptSteps)
	}
	for i, s := range in.Steps {
		if s == nil {
			return badInput("script step %d is empty", i+1)
		}
		if e := ValidateAct(s, true); e != nil {
			return badInput("script step %d: %s", i+1, e.Message)
		}
		if s.Target.Semantic() || s.Target.Point() {
			return badInput("script step %d: a script's steps name their target by ref from your latest observation", i+1)
		}
	}
	return nil
}

var namedKeys = map[string]bool{
	"Enter": true, "Tab": true, "Escape": true, "Backspace": true, "Delete": true,
	"ArrowUp": true, "ArrowDown": true, "ArrowLeft": true, "ArrowRight": true,
	"Home": true, "End": true, "PageUp": true, "PageDown": true, "Space": true,
}

func validKey(k string) bool {
	return namedKeys[k] || len([]rune(k)) == 1 && k != "\x00"
}

package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"strings"

	"github.com/buddi-dev/buddi/messages"
)

// Limits on tool input.
const (
	MaxInputBytes  = 64 << 10
	MaxValueChars  = 10000
	MaxScriptSteps = 10
	MaxWaitMs      = 15000
	DefaultWaitMs  = 5000
	MaxDOMChars    = 8000
)

var refPattern = regexp.MustCompile(`^e[0-9]{1,7}$`)

// MaxFindChars bounds find's text, role and name.
const MaxFindChars = 200

// actions lists every browser.act action and whether it mutates a page.
var actions = map[string]bool{
	"navigate": false, "observe": false, "find": false, "click": true, "fill": true, "select": true,
	"press": true, "scroll": true, "tab": false, "close": false, "back": false,
	"forward": false, "hover": true, "submit": true, "wait_for": false, "dom": false,
	"console": false, "screenshot": false, "script": false,
}

// scriptable are the navigation-phase actions a script may hold.
var scriptable = map[string]bool{"navigate": true, "click": true, "dom": true, "wait_for": true, "screenshot": true}

// Decode parses and validates browser.act input. A failure is a
// *messages.Error with code bad_input and one sentence.
func Decode(raw []byte) (*messages.ActInput, error) {
	if len(raw) > MaxInputBytes {
		return nil, badInput("the input is larger than %d KB; send a smaller value", MaxInputBytes>>10)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var in messages.ActInput
	if err := dec.Decode(&in); err != nil {
		return nil, badInput("the input is not valid JSON for browser.act (%s); send an object such as {\"action\":\"observe\"}", jsonProblem(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, badInput("the input has data after its JSON object; send exactly one object")
	}
	if err := Validate(&in, false); err != nil {
		return nil, err
	}
	return &in, nil
}

// Validate checks one action's fields. inScript is true for script steps.
func Validate(in *messages.ActInput, inScript bool) error {
	mut, ok := actions[in.Action]
	if !ok {
		return badInput("%q is not an action; use one of navigate, observe, find, click, fill, select, press, scroll, tab, close, back, forward, hover, submit, wait_for, dom, console, screenshot, script", clip(in.Action))
	}
	if inScript && !scriptable[in.Action] {
		return badInput("a script may hold only navigate, click, dom, wait_for and screenshot, not %s", in.Action)
	}
	if mut && in.Observation == "" {
		return badInput("%s needs \"observation\": the id of your latest observation; call observe first", in.Action)
	}
	if in.Target != nil && !refPattern.MatchString(in.Target.Ref) {
		return badInput("the target ref %q is not a ref like e12; use a ref from your latest observation", clip(in.Target.Ref))
	}
	if len(in.Value) > MaxValueChars {
		return badInput("the value is longer than %d characters", MaxValueChars)
	}
	return validateFields(in)
}

func validateFields(in *messages.ActInput) error {
	switch in.Action {
	case "observe":
		return checkRead(in)
	case "find":
		return checkFind(in)
	case "navigate":
		return checkURL(in.URL, in.URLSource)
	case "click", "fill", "select", "hover", "submit":
		if in.Target == nil {
			return badInput("%s needs a \"target\" with a ref from your latest observation, e.g. {\"ref\":\"e12\"}", in.Action)
		}
		if in.Action == "select" && len(in.Values) == 0 {
			return badInput("select needs \"values\": the option labels or values to choose")
		}
	case "press":
		if !validKey(in.Key) {
			return badInput("the key %q is not allowed; use Enter, Tab, Escape, Backspace, Delete, Space, an arrow, Home, End, PageUp, PageDown or one character", clip(in.Key))
		}
	case "scroll":
		if in.Target == nil && in.DeltaY == 0 {
			return badInput("scroll needs \"deltaY\" in pixels or a \"target\" to bring into view")
		}
	case "tab":
		return checkTab(in)
	case "wait_for":
		return checkWait(in)
	case "script":
		return checkScript(in)
	}
	if in.MaxChars < 0 || in.MaxChars > MaxDOMChars {
		return badInput("maxChars must be from 1 to %d", MaxDOMChars)
	}
	return nil
}

func checkURL(raw, source string) error {
	if raw == "" {
		return badInput("navigate needs \"url\": an absolute http or https address")
	}
	if source != "" && source != "agent" && source != "page_link" {
		return badInput("urlSource %q is not known; use agent or page_link", clip(source))
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return badInput("%q is not an absolute URL; use for example https://example.com/", clip(raw))
	}
	return nil
}

func checkRead(in *messages.ActInput) error {
	for _, ref := range []string{in.Within, in.After} {
		if ref != "" && !refPattern.MatchString(ref) {
			return badInput("%q is not a ref like e12; use a ref from your latest observation", clip(ref))
		}
	}
	if in.After != "" && !in.FullPage && in.Within == "" {
		return badInput("after continues a fullPage or within read; send the continues object of your latest observation as it is")
	}
	if in.FullPage && in.Within != "" {
		return badInput("observe takes fullPage or within, not both")
	}
	return nil
}

func checkFind(in *messages.ActInput) error {
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

func checkTab(in *messages.ActInput) error {
	switch in.Tab {
	case "list", "new":
		return nil
	case "switch", "close":
		if in.TabID == "" {
			return badInput("tab %s needs \"tabId\" from the tabs of your latest observation", in.Tab)
		}
		return nil
	}
	return badInput("tab %q is not an operation; use list, new, switch or close", clip(in.Tab))
}

func checkWait(in *messages.ActInput) error {
	w := in.Wait
	if w == nil {
		return badInput("wait_for needs \"wait\" with one of selector, text, url or load")
	}
	n := 0
	for _, set := range []bool{w.Selector != "", w.Text != "", w.URL != "", w.Load} {
		if set {
			n++
		}
	}
	if n != 1 {
		return badInput("wait_for takes exactly one of selector, text, url or load, not %d", n)
	}
	if in.TimeoutMs < 0 || in.TimeoutMs > MaxWaitMs {
		return badInput("timeoutMs must be from 1 to %d", MaxWaitMs)
	}
	return nil
}

func checkScript(in *messages.ActInput) error {
	if len(in.Steps) == 0 || len(in.Steps) > MaxScriptSteps {
		return badInput("script needs from 1 to %d \"steps\"", MaxScriptSteps)
	}
	for i, s := range in.Steps {
		if s == nil {
			return badInput("script step %d is empty", i+1)
		}
		if err := Validate(s, true); err != nil {
			var e *messages.Error
			if errors.As(err, &e) {
				return badInput("script step %d: %s", i+1, e.Message)
			}
			return err
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

func badInput(format string, args ...any) *messages.Error {
	return &messages.Error{Code: "bad_input", Message: fmt.Sprintf(format, args...)}
}

func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error at byte %d", se.Offset)
	case errors.As(err, &te):
		return fmt.Sprintf("field %s should be %s", te.Field, te.Type)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	return "it could not be read"
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

package messages

import "fmt"

// ActInput is the input of browser.act. Action picks which other fields
// apply; the action table (Actions) says which. The descriptions of action,
// observation and steps are filled from the table where the schema is built.
type ActInput struct {
	Action      string      `json:"action" jsonschema:"the action to take"`
	Observation string      `json:"observation,omitempty" jsonschema:"id of the latest observation; required by the actions that put input on the page"`
	Target      *TargetRef  `json:"target,omitempty" jsonschema:"the element to act on: a ref from the latest observation, or an exact role and name, label, placeholder or text"`
	URL         string      `json:"url,omitempty" jsonschema:"navigate: absolute http or https URL"`
	URLSource   string      `json:"urlSource,omitempty" jsonschema:"navigate: where the URL came from: agent (default) or page_link"`
	Value       string      `json:"value,omitempty" jsonschema:"fill: the text to enter"`
	Values      []string    `json:"values,omitempty" jsonschema:"select: option labels or values"`
	Secret      string      `json:"secret,omitempty" jsonschema:"secret_fill: the name of one of the owner's secrets, as secret_list gives it; buddi types its value, which you never see"`
	Key         string      `json:"key,omitempty" jsonschema:"press: a key name such as Enter, Tab, Escape, ArrowDown, or one character"`
	DeltaY      int         `json:"deltaY,omitempty" jsonschema:"scroll: pixels, positive scrolls down"`
	Tab         string      `json:"tab,omitempty" jsonschema:"tab: list, new, switch or close"`
	TabID       string      `json:"tabId,omitempty" jsonschema:"tab: the tab id for switch and close"`
	Wait        *WaitInput  `json:"wait,omitempty" jsonschema:"wait_for: exactly one condition"`
	TimeoutMs   int         `json:"timeoutMs,omitempty" jsonschema:"wait_for and navigate: milliseconds, wait_for defaults to 5000 and allows at most 15000"`
	Within      string      `json:"within,omitempty" jsonschema:"observe: read only this region, by ref from the latest observation (a landmark, or a heading's section), in parts"`
	After       string      `json:"after,omitempty" jsonschema:"observe: the next part of a fullPage or within read, with the ref its continues names"`
	Rows        string      `json:"rows,omitempty" jsonschema:"observe: with within a table's ref, the rows to read, such as 12-40"`
	Text        string      `json:"text,omitempty" jsonschema:"find: text the element holds"`
	Role        string      `json:"role,omitempty" jsonschema:"find: the element's role, such as link, button, heading, textbox"`
	Name        string      `json:"name,omitempty" jsonschema:"find: the element's accessible name"`
	Exact       bool        `json:"exact,omitempty" jsonschema:"find: whole, case-sensitive match instead of a case-insensitive substring"`
	FullPage    bool        `json:"fullPage,omitempty" jsonschema:"observe: the whole document, in parts, instead of the viewport and an outline"`
	Screenshot  bool        `json:"screenshot,omitempty" jsonschema:"observe: attach a screenshot"`
	ThenObserve bool        `json:"thenObserve,omitempty" jsonschema:"navigate, click and the other actions that change the page: observe the page after it in the same call, answered as that observation (two steps)"`
	FullRes     bool        `json:"fullRes,omitempty" jsonschema:"screenshot: up to 4096 px instead of 1280 px"`
	MaxChars    int         `json:"maxChars,omitempty" jsonschema:"dom: cap on the returned HTML in characters, at most 8000"`
	Selector    string      `json:"selector,omitempty" jsonschema:"dom: a CSS selector; the first element it matches is read instead of the whole page"`
	Steps       []*ActInput `json:"steps,omitempty" jsonschema:"script: up to 10 steps"`
	AppID       string      `json:"appId,omitempty" jsonschema:"open: an app's bundle id (computer mode only)"`
	App         string      `json:"app,omitempty" jsonschema:"open: an app's name (computer mode only)"`
}

// Where a navigate's URL came from.
const (
	URLFromAgent = "agent"     // the agent chose it (the default)
	URLFromPage  = "page_link" // the agent read it out of page content
)

// TargetRef names an observed element: by its ref (preferred), or by what
// it is, matched exactly against the latest observation: a role and name, a
// label, a placeholder or a text. A semantic target must match exactly one
// element, and the page's tree must not have changed since the observation.
type TargetRef struct {
	Ref   string `json:"ref,omitempty" jsonschema:"a ref such as e12 from the latest observation"`
	By    string `json:"by,omitempty" jsonschema:"instead of a ref: role (with role and name), link (a link's name), label, placeholder or text (with name)"`
	Role  string `json:"role,omitempty" jsonschema:"by role: the element's exact role, such as button"`
	Name  string `json:"name,omitempty" jsonschema:"the exact name, label, placeholder or text to match"`
	Frame int    `json:"frame,omitempty" jsonschema:"the frame number the observation gave the element; 0 is the page itself"`
	X     *int   `json:"x,omitempty" jsonschema:"click in Use my apps, instead of a ref: pixels from the left edge of the latest observation's screenshot, which must be unchanged"`
	Y     *int   `json:"y,omitempty" jsonschema:"click in Use my apps, instead of a ref: pixels from the top edge of the latest observation's screenshot"`
}

// MaxPixel bounds a pixel target's coordinates.
const MaxPixel = 16384

// Point reports whether the target is a pixel of the latest screenshot
// rather than an element.
func (t *TargetRef) Point() bool { return t != nil && (t.X != nil || t.Y != nil) }

// Ways a semantic target matches.
const (
	ByRole        = "role"
	ByLink        = "link" // by role link
	ByLabel       = "label"
	ByPlaceholder = "placeholder"
	ByText        = "text"
)

// Semantic reports whether the target names an element by what it is
// rather than by ref.
func (t *TargetRef) Semantic() bool { return t != nil && t.Ref == "" && !t.Point() }

// MatchRole is the role a semantic target asks for ("" for any): by link
// is by role link.
func (t *TargetRef) MatchRole() string {
	if t.By == ByLink {
		return "link"
	}
	if t.By == ByRole {
		return t.Role
	}
	return ""
}

// Describe is the target in words, for sentences.
func (t *TargetRef) Describe() string {
	switch {
	case t.Ref != "":
		return t.Ref
	case t.Point() && t.X != nil && t.Y != nil:
		return fmt.Sprintf("the pixel at %d,%d", *t.X, *t.Y)
	case t.By == ByRole || t.By == ByLink:
		return t.MatchRole() + " " + quoted(t.Name)
	}
	return t.By + " " + quoted(t.Name)
}

func quoted(s string) string { return "\"" + Clip(s, 60) + "\"" }

// WaitInput is a wait_for condition.
type WaitInput struct {
	Selector string `json:"selector,omitempty" jsonschema:"a CSS selector that must match a visible element"`
	Text     string `json:"text,omitempty" jsonschema:"text that must appear on the page"`
	URL      string `json:"url,omitempty" jsonschema:"a substring the page URL must contain"`
	Load     bool   `json:"load,omitempty" jsonschema:"wait for the document load to complete"`
	Ref      string `json:"ref,omitempty" jsonschema:"a ref from the latest observation whose element must be shown"`
}

// Cost is how many steps an act spends: one, one per script step, or two
// for an action that observes the page after it.
func (in *ActInput) Cost() int {
	switch {
	case Spec(in.Action).Run == RunScript:
		return len(in.Steps)
	case in.ThenObserve:
		return 2
	}
	return 1
}

// Navigates lists the navigate steps of an act: itself, or a script's.
func (in *ActInput) Navigates() []*ActInput {
	steps := []*ActInput{in}
	if Spec(in.Action).Run == RunScript {
		steps = in.Steps
	}
	var out []*ActInput
	for _, s := range steps {
		if s != nil && s.Action == "navigate" {
			out = append(out, s)
		}
	}
	return out
}

// TaskInput is the input of browser.task: an agent asking the owner for a task.
type TaskInput struct {
	Description string `json:"description,omitempty" jsonschema:"what the agent wants to do, in one or two sentences (needed unless moveTo is given)"`
	Steps       int    `json:"steps,omitempty" jsonschema:"the step budget asked for, at most 80"`
	Minutes     int    `json:"minutes,omitempty" jsonschema:"the ownership lifetime asked for, at most 20"`
	// MoveTo moves this conversation's session, with its task, to a new
	// conversation id (the conversation rolled over to a new transcript).
	MoveTo string `json:"moveTo,omitempty" jsonschema:"instead of asking for a task: move this conversation's session and task to this new conversation id (when your conversation continues under a new id); give nothing else"`
}

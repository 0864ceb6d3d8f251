package messages

import (
	"strings"
	"time"
)

// Run says how a session carries an action out.
type Run uint8

// How actions run.
const (
	RunDo      Run = iota // one driver Tabs.Do call
	RunObserve            // the driver's Tabs.Observe
	RunScript             // steps the session runs one by one through Tabs.Do
	RunClose              // the session ends itself; no driver call
	RunSecrets            // the session answers from the owner's secrets; no driver call
)

// ActionSpec is everything buddi knows about one browser.act action. The
// schema agents read, input validation, the session's rules, both drivers'
// dispatch and the MCP description all read this table; a test fails when
// an action is added anywhere without it.
type ActionSpec struct {
	Name string
	Run  Run
	// Mutating: input reaches the page, so the call must name the latest
	// observation (and the driver re-checks its target before input).
	Mutating bool
	// ChangesPage: the agent's evidence is stale afterwards, whatever the
	// outcome said.
	ChangesPage bool
	// Scriptable: may be a step of a script (the navigation phase only).
	Scriptable bool
	// Deadline bounds the driver call the session makes for it.
	Deadline time.Duration
	// Doc is one phrase on what it does, for the schema and the MCP tool.
	Doc string
	// Past says that it was done, for people following along (InWords).
	Past string
	// Reads: it only reads the page, which is as it was before (a surface
	// that showed the page need not show it again). wait_for is no read:
	// the page changes while it waits.
	Reads bool
	// Takes names the fields of the action's own, beside the ones every
	// action may carry (action, observation, timeoutMs, thenObserve); a
	// field the action does not read is refused, not left unread.
	Takes string
	// check validates the fields this action uses, after the checks every
	// action shares.
	check func(in *ActInput) error
	takes fieldSet // Takes, as validation reads it
}

const (
	shortDeadline  = 20 * time.Second
	loadDeadline   = 30 * time.Second
	scriptDeadline = 90 * time.Second
)

// ToolDeadline bounds one tool call at the edge (the HTTP API and MCP):
// every wait inside a call fits in it.
const ToolDeadline = 100 * time.Second

// maxStartWait bounds how long an act waits for its browser to start.
const maxStartWait = 45 * time.Second

// StartWait is how long the action may wait for its browser to start
// before its own Deadline begins: 45 s, less where the two together would
// not fit in the tool's deadline (a script's 90 s leaves 5 s).
func (s *ActionSpec) StartWait() time.Duration {
	return max(0, min(maxStartWait, ToolDeadline-5*time.Second-s.Deadline))
}

// ObservesAfter says the action may take thenObserve: it is one driver
// call that may change the page.
func (s *ActionSpec) ObservesAfter() bool {
	return s.Run == RunDo && (s.Mutating || s.ChangesPage)
}

// actions is the table, in the order agents read it.
var actions = []*ActionSpec{
	{Name: "navigate", Takes: "url urlSource", Past: "Opened", ChangesPage: true, Scriptable: true, Deadline: loadDeadline,
		Doc: "open an absolute http or https url", check: checkNavigate},
	{Name: "observe", Takes: "fullPage within after rows screenshot", Past: "Read the page", Reads: true, Run: RunObserve, Deadline: shortDeadline,
		Doc: "see the page: an observation id and refs such as e12; within a region, or the whole page, in parts", check: checkRead},
	{Name: "find", Takes: "text role name exact screenshot", Past: "Searched the page", Reads: true, Run: RunObserve, Deadline: shortDeadline,
		Doc: "search the whole page for text, a role or a name, and observe what matched", check: checkFind},
	{Name: "click", Takes: "target", Past: "Clicked", Mutating: true, Scriptable: true, Deadline: shortDeadline,
		Doc: "click target", check: needTarget},
	{Name: "fill", Takes: "target value", Past: "Typed into", Mutating: true, Deadline: shortDeadline,
		Doc: "type value into target", check: needTarget},
	{Name: "secret_list", Past: "Listed the owner's secrets", Reads: true, Run: RunSecrets, Deadline: shortDeadline,
		Doc: "list the owner's own secrets you may fill: each one's name and the origins it is for, never its value", check: checkChars},
	{Name: "secret_fill", Takes: "target secret", Past: "Filled one of the owner's secrets into", Mutating: true, Deadline: shortDeadline,
		Doc: "type the owner's secret named secret into target, a field of a page of one of the secret's origins", check: checkSecretFill},
	{Name: "select", Takes: "target values", Past: "Chose an option in", Mutating: true, Deadline: shortDeadline,
		Doc: "choose values in target", check: checkSelect},
	{Name: "press", Takes: "key target", Past: "Pressed", Mutating: true, Deadline: shortDeadline,
		Doc: "press one key", check: checkPress},
	{Name: "scroll", Takes: "deltaY target", Past: "Scrolled", Mutating: true, Deadline: shortDeadline,
		Doc: "scroll by deltaY, or bring target into view", check: checkScroll},
	{Name: "tab", Takes: "tab tabId", Past: "Tabs:", ChangesPage: true, Deadline: shortDeadline,
		Doc: "list, open, switch or close tabs", check: checkTab},
	{Name: "close", Past: "Closed the session", Run: RunClose, Deadline: shortDeadline,
		Doc: "end this conversation's session and close its tabs", check: checkChars},
	{Name: "back", Past: "Went back", ChangesPage: true, Deadline: shortDeadline,
		Doc: "go back in history", check: checkChars},
	{Name: "forward", Past: "Went forward", ChangesPage: true, Deadline: shortDeadline,
		Doc: "go forward in history", check: checkChars},
	{Name: "hover", Takes: "target", Past: "Pointed at", Mutating: true, Deadline: shortDeadline,
		Doc: "move the pointer over target", check: needTarget},
	{Name: "submit", Takes: "target", Past: "Submitted the form of", Mutating: true, ChangesPage: true, Deadline: shortDeadline,
		Doc: "submit the form of target", check: needTarget},
	{Name: "wait_for", Takes: "wait", Past: "Waited", Scriptable: true, Deadline: loadDeadline,
		Doc: "wait for one condition", check: checkWait},
	{Name: "dom", Takes: "maxChars selector", Past: "Read the page's HTML", Reads: true, Scriptable: true, Deadline: shortDeadline,
		Doc: "read the page's HTML (sanitised: no scripts, styles or event handlers; credential values masked; hidden elements marked data-buddi-hidden), or one element's by selector", check: checkDOM},
	{Name: "console", Takes: "maxChars", Past: "Read the console", Reads: true, Deadline: shortDeadline,
		Doc: "read the console", check: checkChars},
	{Name: "screenshot", Takes: "fullRes", Past: "Took a screenshot", Reads: true, Scriptable: true, Deadline: shortDeadline,
		Doc: "a JPEG of the viewport", check: checkChars},
	{Name: "script", Takes: "steps", Past: "Ran a script", Run: RunScript, Deadline: scriptDeadline,
		Doc: "run up to 10 steps in one call", check: checkScript},
	{Name: "open", Takes: "appId app", Past: "Brought forward", Deadline: shortDeadline,
		Doc: "bring an app forward by appId or app (computer mode only; the browser modes have no apps)", check: checkOpen},
}

// actionsByName indexes the table. It is filled in init, not by an
// initializer, because validation reads it and the table refers to
// validation: an initializer would be a cycle.
var actionsByName map[string]*ActionSpec

// Sentences validation quotes, built from the table in init for the same reason.
var actionList, scriptList string

func init() {
	actionsByName = make(map[string]*ActionSpec, len(actions))
	for _, a := range actions {
		actionsByName[a.Name] = a
		a.takes = fieldsNamed(a.Takes)
	}
	actionList = strings.Join(ActionNames(nil), ", ")
	scriptList = Words(ActionNames(Scriptables), "and")
}

// unknownAction is what ActionOf returns for a name not in the table: it
// mutates nothing, changes nothing and runs nowhere.
var unknownAction = &ActionSpec{Run: RunClose, Deadline: shortDeadline}

// Actions lists the table in order. The specs must not be changed.
func Actions() []*ActionSpec { return actions }

// ActionOf returns the spec of an action name; ok is false when there is none.
func ActionOf(name string) (spec *ActionSpec, ok bool) {
	if a, found := actionsByName[name]; found {
		return a, true
	}
	return unknownAction, false
}

// Spec is ActionOf without the ok: an unknown name reads as an action that
// mutates nothing and changes nothing.
func Spec(name string) *ActionSpec {
	a, _ := ActionOf(name)
	return a
}

// ActionNames lists the names of the actions for which keep reports true, in
// table order.
func ActionNames(keep func(*ActionSpec) bool) []string {
	var out []string
	for _, a := range actions {
		if keep == nil || keep(a) {
			out = append(out, a.Name)
		}
	}
	return out
}

// Mutators is what the agent must observe again before: the mutating actions.
func Mutators(a *ActionSpec) bool { return a.Mutating }

// Scriptables are the actions a script may hold.
func Scriptables(a *ActionSpec) bool { return a.Scriptable }

// Driven are the actions a driver's Tabs.Do performs.
func Driven(a *ActionSpec) bool { return a.Run == RunDo }

// Words joins names as a sentence does: "a, b and c", or with "or".
func Words(names []string, conj string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// ObserveAgain is the hint an outcome carries after an action that may have
// changed the page: the next action is observe. It is one word because it
// comes with every click and navigation; browser_act's description says
// which actions need the newest observation.
const ObserveAgain = "observe"

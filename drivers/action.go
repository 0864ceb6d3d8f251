package drivers

import (
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Kind names an action a driver performs: the name of a browser.act action
// whose spec says it runs through Tabs.Do.
type Kind string

// The actions. Observe is not here: it has its own method. Kinds lists
// them; a test checks it against the contract's action table.
const (
	Navigate   Kind = "navigate"
	Back       Kind = "back"
	Forward    Kind = "forward"
	Click      Kind = "click"
	Fill       Kind = "fill"
	SecretFill Kind = "secret_fill"
	Select     Kind = "select"
	Press      Kind = "press"
	Hover      Kind = "hover"
	Scroll     Kind = "scroll"
	Submit     Kind = "submit"
	TabAction  Kind = "tab"
	WaitFor    Kind = "wait_for"
	DOM        Kind = "dom"
	Console    Kind = "console"
	Screenshot Kind = "screenshot"
	Open       Kind = "open"
)

// Kinds lists every Kind, in the action table's order.
var Kinds = []Kind{Navigate, Click, Fill, SecretFill, Select, Press, Scroll, TabAction, Back, Forward,
	Hover, Submit, WaitFor, DOM, Console, Screenshot, Open}

// Spec is the action table's row for the kind.
func (k Kind) Spec() *messages.ActionSpec { return messages.Spec(string(k)) }

// Mutating reports whether the action puts input on a page, and so must name
// the latest observation (the table says).
func (k Kind) Mutating() bool { return k.Spec().Mutating }

// Action is one validated request to a driver. Fields not used by Kind are zero.
type Action struct {
	Kind   Kind
	Target *Target // click, fill, select, hover, submit; optional for press, scroll
	URL    string  // navigate
	Value  string  // fill: text; secret_fill: the owner's secret; press: key name
	// Origins are the origins a secret_fill's secret is for: the driver
	// types it only into a field whose own document has one of them,
	// read in the same step that types, and says nothing of the value.
	Origins []string
	Values  []string      // select: option labels or values
	DeltaY  int           // scroll: pixels, positive is down
	TabOp   string        // tab: "list", "new", "switch", "close"
	TabID   string        // tab: switch, close
	Wait    *WaitCond     // wait_for
	Timeout time.Duration // bound for navigate, wait_for; 0 means the driver default
	FullRes bool          // screenshot: up to 4096 px instead of 1280 px
	// Owner marks buddi's own picture of the page for the owner (not the
	// agent's act): it leaves what the conversation is to be told (a
	// restart, a page cut off) for the agent's next call.
	Owner    bool
	MaxChars int    // dom: cap on the HTML; 0 means 8000
	Selector string // dom: read the first element it matches, not the whole page
	AppID    string // open: a bundle id
	App      string // open: an app's name
	Point    *Point // click: a pixel of the latest screenshot instead of Target (computer mode)
}

// Point is a pixel of an observation's screenshot, from its top-left corner.
type Point struct{ X, Y int }

// WaitCond is what wait_for polls for: exactly one field is set.
type WaitCond struct {
	Selector string
	Text     string
	URL      string  // substring of the page URL
	Load     bool    // document load complete
	Target   *Target // an element of the latest observation, until it is shown
}

// Outcome of an action.
type Outcome struct {
	// Result is "loaded", "load_pending", "navigated", "same_page", "done".
	Result string    `json:"outcome"`
	URL    string    `json:"url,omitempty"`
	Title  string    `json:"title,omitempty"`
	Text   string    `json:"text,omitempty"` // dom, console
	Tabs   []TabInfo `json:"tabs,omitempty"`
	Image  []byte    `json:"-"` // screenshot JPEG
	Width  int       `json:"width,omitempty"`
	Height int       `json:"height,omitempty"`
	// App is the app whose window Image shows, by id, in Use my apps.
	App string `json:"-"`
	// Changed is true when the action navigated or submitted: the next
	// mutating call needs a fresh observation.
	Changed bool `json:"-"`
}

// Outcome results.
const (
	Loaded      = "loaded"
	LoadPending = "load_pending"
	Navigated   = "navigated"
	SamePage    = "same_page"
	Done        = "done"
)

// TabInfo names one of the conversation's tabs, as the contract does.
type TabInfo = messages.Tab

// TimeoutOr is the action's own bound, or def when it gives none, and no
// more than ceiling when ceiling is positive.
func (a *Action) TimeoutOr(def, ceiling time.Duration) time.Duration {
	d := a.Timeout
	if d <= 0 {
		d = def
	}
	if ceiling > 0 && d > ceiling {
		d = ceiling
	}
	return d
}

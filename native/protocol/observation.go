package protocol

import "time"

// Observation is the focused window of the selected app as the helper saw it.
type Observation struct {
	ObservedAt time.Time  `json:"observed_at"`
	Window     Window     `json:"window"`
	Nodes      []Node     `json:"nodes"`               // the accessibility tree, depth first
	Truncated  bool       `json:"truncated,omitempty"` // a limit cut the tree short
	Screenshot Screenshot `json:"screenshot"`          // that window only
}

// Window is one top-level window.
type Window struct {
	ID          string `json:"id"`    // the platform's id, such as x11:0x2000004
	Title       string `json:"title"` //
	AppID       string `json:"app_id"`
	AppName     string `json:"app_name,omitempty"`
	PID         int    `json:"pid"`
	Frame       Rect   `json:"frame"`       // on the screen, in points, without decorations the app does not draw into
	Fingerprint string `json:"fingerprint"` // the same window of the same app; see WindowFingerprint
}

// Rect is a rectangle in points.
type Rect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// Contains reports whether the point lies inside r.
func (r Rect) Contains(x, y int) bool {
	return x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H
}

// Center is the middle of r.
func (r Rect) Center() (x, y int) { return r.X + r.W/2, r.Y + r.H/2 }

// Node is one element of the tree.
type Node struct {
	Ref         string  `json:"ref"`  // ax1, ax2, … in tree order
	Role        string  `json:"role"` // see Roles
	Name        string  `json:"name,omitempty"`
	Value       string  `json:"value,omitempty"` // masked (empty) when Secure
	Depth       int     `json:"depth"`
	Box         Rect    `json:"box"` // window-relative points
	States      []State `json:"states,omitempty"`
	Secure      bool    `json:"secure,omitempty"` // a password field: masked, never filled
	Locator     string  `json:"locator"`          // the platform's way back to this element
	Fingerprint string  `json:"fingerprint"`      // the element's identity; see ElementFingerprint
}

// State is a flag of a node.
type State string

// The states a node may carry.
const (
	StateFocused   State = "focused"
	StateDisabled  State = "disabled"
	StateChecked   State = "checked"
	StateSelected  State = "selected"
	StateExpanded  State = "expanded"
	StateCollapsed State = "collapsed"
	StatePressed   State = "pressed"
	StateEditable  State = "editable"
)

var knownStates = map[State]bool{StateFocused: true, StateDisabled: true, StateChecked: true,
	StateSelected: true, StateExpanded: true, StateCollapsed: true, StatePressed: true, StateEditable: true}

// Roles are the role names a node may have, shared by every platform (each
// maps its own roles onto these; what it cannot map is "generic").
var Roles = map[string]bool{
	"window": true, "dialog": true, "button": true, "checkbox": true, "radio": true,
	"switch": true, "textbox": true, "combobox": true, "listbox": true, "option": true,
	"link": true, "menu": true, "menubar": true, "menuitem": true, "tab": true,
	"tablist": true, "tabpanel": true, "list": true, "listitem": true, "tree": true,
	"treeitem": true, "table": true, "row": true, "cell": true, "columnheader": true,
	"rowheader": true, "slider": true, "spinbutton": true, "progressbar": true,
	"scrollbar": true, "toolbar": true, "group": true, "heading": true, "text": true,
	"img": true, "document": true, "separator": true, "status": true, "tooltip": true,
	"alert": true, "generic": true,
}

// Screenshot is the window's picture.
type Screenshot struct {
	Format string  `json:"format"` // png or jpeg
	Width  int     `json:"width"`  // pixels
	Height int     `json:"height"` // pixels
	Scale  float64 `json:"scale"`  // pixels per window point
	Data   []byte  `json:"data"`   // the encoded image (base64 in JSON)
	Hash   string  `json:"hash"`   // sha256 of the captured pixels; a pixel click needs it unchanged
}

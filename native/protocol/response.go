package protocol

// Response is what a helper writes to its standard output: an Error, or
// exactly the result of the call it was asked.
type Response struct {
	V           int          `json:"v"`
	Error       *Error       `json:"error,omitempty"`
	Observation *Observation `json:"observation,omitempty"` // observe
	Input       *InputResult `json:"input,omitempty"`       // click, fill, press
	Opened      *Opened      `json:"opened,omitempty"`      // open
	Navigated   *Navigated   `json:"navigated,omitempty"`   // navigate
	Permissions *Permissions `json:"permissions,omitempty"` // probe, request_permissions
	Found       *App         `json:"found,omitempty"`       // find
}

// Via says how an input was delivered.
type Via string

// The ways input is delivered.
const (
	ViaAction   Via = "action"   // the element's own accessibility press action
	ViaPointer  Via = "pointer"  // an OS mouse event
	ViaKeyboard Via = "keyboard" // OS keyboard events
)

// InputResult is the answer to click, fill and press.
type InputResult struct {
	Via Via `json:"via"`
}

// App is an installed application.
type App struct {
	ID   string `json:"id"`             // bundle id on macOS, desktop file id on Linux
	Name string `json:"name"`           // its name as installed
	Path string `json:"path,omitempty"` // where it is installed
}

// Opened is the answer to open: the app, whether the helper started it, and
// its window that now has focus.
type Opened struct {
	App     App    `json:"app"`
	Started bool   `json:"started"`
	Window  Window `json:"window"`
}

// Navigated is the answer to navigate.
type Navigated struct {
	Browser App    `json:"browser"`
	URL     string `json:"url"`
}

// Permissions is the answer to probe and request_permissions.
type Permissions struct {
	Platform string  `json:"platform"` // "macos", "linux-x11"
	Ready    bool    `json:"ready"`    // every check passed: the mode can be offered here
	Checks   []Check `json:"checks"`
}

// Check is one thing the mode needs.
type Check struct {
	Name   string `json:"name"`   // display, accessibility, screen_capture, input, …
	OK     bool   `json:"ok"`     //
	Detail string `json:"detail"` // one sentence: what was found, or what to do
}

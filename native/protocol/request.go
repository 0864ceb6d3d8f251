package protocol

// Request is what buddi writes to a helper's standard input. Exactly the
// argument field named by Call is set (probe and request_permissions take
// none).
type Request struct {
	V         int           `json:"v"`
	Call      Call          `json:"call"`
	TimeoutMS int           `json:"timeout_ms"` // the helper's own budget; the Client kills it a little later
	Observe   *ObserveArgs  `json:"observe,omitempty"`
	Click     *ClickArgs    `json:"click,omitempty"`
	Fill      *FillArgs     `json:"fill,omitempty"`
	Press     *PressArgs    `json:"press,omitempty"`
	Open      *OpenArgs     `json:"open,omitempty"`
	Navigate  *NavigateArgs `json:"navigate,omitempty"`
	Find      *FindArgs     `json:"find,omitempty"`
}

// ObserveArgs asks for the focused window, which must belong to App.
type ObserveArgs struct {
	App string `json:"app"` // the selected app's id (a bundle id on macOS, a desktop id on Linux)
}

// Guard is what every input carries from the observation it acts on: the
// app, and the fingerprint of the window that must still have focus.
type Guard struct {
	App    string `json:"app"`
	Window string `json:"window"` // Window.Fingerprint of the observation
}

// ElementTarget names one observed element.
type ElementTarget struct {
	Ref         string `json:"ref"`         // ax12, for sentences only
	Locator     string `json:"locator"`     // Node.Locator of the observation
	Fingerprint string `json:"fingerprint"` // Node.Fingerprint of the observation
}

// PointTarget is a pixel of the observation's screenshot.
type PointTarget struct {
	X          int     `json:"x"` // screenshot pixels from the window's left edge
	Y          int     `json:"y"` // screenshot pixels from the window's top edge
	Scale      float64 `json:"scale"`
	Screenshot string  `json:"screenshot"` // Screenshot.Hash of the observation
}

// ClickArgs clicks an element or a pixel: exactly one of the two.
type ClickArgs struct {
	Guard
	Element *ElementTarget `json:"element,omitempty"`
	Point   *PointTarget   `json:"point,omitempty"`
}

// FillArgs types Value into an element, replacing what it holds.
type FillArgs struct {
	Guard
	Element ElementTarget `json:"element"`
	Value   string        `json:"value"`
}

// PressArgs presses one allowed key (see KeyAllowed) in the focused window.
type PressArgs struct {
	Guard
	Key string `json:"key"`
}

// OpenArgs names an app by id or by its exact name: exactly one of the two.
type OpenArgs struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name,omitempty"`
}

// NavigateArgs opens URL in an ordinary new tab of the browser app.
type NavigateArgs struct {
	Browser string `json:"browser"` // the browser app's id
	URL     string `json:"url"`
}

// FindArgs names an app by its exact name, in any case, for find: the
// helper answers with the one installed app of that name and starts nothing.
type FindArgs struct {
	Name string `json:"name"`
}

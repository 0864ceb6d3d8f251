// Package cdp is the DevTools commands buddi's drivers send, typed: the
// Playwright driver sends them through its CDP sessions, the extension
// driver through the extension's debugger. Each command is a struct whose
// JSON is the command's parameters and whose Method names it, so neither
// driver spells a parameter by hand.
package cdp

import "encoding/json"

// Command is one DevTools command with its parameters.
type Command interface{ Method() string }

// Params is c's parameters as a map, the form Playwright's CDP session
// sends; nil for a command without parameters.
func Params(c Command) map[string]any {
	b, err := json.Marshal(c)
	if err != nil {
		return nil // the commands hold strings, numbers and booleans only
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil || len(m) == 0 {
		return nil
	}
	return m
}

// Mouse event types.
const (
	MouseMoved    = "mouseMoved"
	MousePressed  = "mousePressed"
	MouseReleased = "mouseReleased"
)

// MouseEvent moves the pointer, or presses or releases a button, at X, Y
// (CSS pixels of the viewport).
type MouseEvent struct {
	Type       string  `json:"type"`
	X          float64 `json:"x"`
	Y          float64 `json:"y"`
	Button     string  `json:"button,omitempty"`     // pressed, released
	ClickCount int     `json:"clickCount,omitempty"` // pressed, released
}

// Method is Input.dispatchMouseEvent.
func (MouseEvent) Method() string { return "Input.dispatchMouseEvent" }

// MouseWheel turns the wheel over X, Y by DeltaX and DeltaY pixels; the
// browser takes both deltas, zero or not.
type MouseWheel struct {
	X, Y, DeltaX, DeltaY float64
}

// Method is Input.dispatchMouseEvent.
func (MouseWheel) Method() string { return "Input.dispatchMouseEvent" }

// MarshalJSON writes the wheel as the mouse event it is.
func (w MouseWheel) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Type   string  `json:"type"`
		X      float64 `json:"x"`
		Y      float64 `json:"y"`
		DeltaX float64 `json:"deltaX"`
		DeltaY float64 `json:"deltaY"`
	}{"mouseWheel", w.X, w.Y, w.DeltaX, w.DeltaY})
}

// Key event types.
const (
	KeyDown = "keyDown"
	KeyUp   = "keyUp"
)

// KeyEvent presses or releases a key. Text is what a press types, if
// anything; Code and WindowsVirtualKeyCode name a key that is not a
// character.
type KeyEvent struct {
	Type                  string `json:"type"`
	Key                   string `json:"key"`
	Code                  string `json:"code,omitempty"`
	WindowsVirtualKeyCode int    `json:"windowsVirtualKeyCode,omitempty"`
	Text                  string `json:"text,omitempty"`
}

// Method is Input.dispatchKeyEvent.
func (KeyEvent) Method() string { return "Input.dispatchKeyEvent" }

// InsertText types Text as if pasted: no key events.
type InsertText struct {
	Text string `json:"text"`
}

// Method is Input.insertText.
func (InsertText) Method() string { return "Input.insertText" }

// Navigate loads URL in the page.
type Navigate struct {
	URL string `json:"url"`
}

// Method is Page.navigate.
func (Navigate) Method() string { return "Page.navigate" }

// NavigationHistory asks for the page's history.
type NavigationHistory struct{}

// Method is Page.getNavigationHistory.
func (NavigationHistory) Method() string { return "Page.getNavigationHistory" }

// NavigateToHistoryEntry goes to one entry of the page's history.
type NavigateToHistoryEntry struct {
	EntryID int `json:"entryId"`
}

// Method is Page.navigateToHistoryEntry.
func (NavigateToHistoryEntry) Method() string { return "Page.navigateToHistoryEntry" }

// StopLoading stops the page's load.
type StopLoading struct{}

// Method is Page.stopLoading.
func (StopLoading) Method() string { return "Page.stopLoading" }

// Viewport is a rectangle of the page in CSS pixels, drawn at Scale.
type Viewport struct {
	X      float64 `json:"x"`
	Y      float64 `json:"y"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Scale  float64 `json:"scale"`
}

// CaptureScreenshot takes a picture of Clip (the viewport when nil).
type CaptureScreenshot struct {
	Format  string    `json:"format"`
	Quality int       `json:"quality"`
	Clip    *Viewport `json:"clip,omitempty"`
}

// Method is Page.captureScreenshot.
func (CaptureScreenshot) Method() string { return "Page.captureScreenshot" }

// StartScreencast sends the page's pictures as they change, each at most
// MaxWidth × MaxHeight.
type StartScreencast struct {
	Format        string `json:"format"`
	Quality       int    `json:"quality"`
	MaxWidth      int    `json:"maxWidth"`
	MaxHeight     int    `json:"maxHeight"`
	EveryNthFrame int    `json:"everyNthFrame"`
}

// Method is Page.startScreencast.
func (StartScreencast) Method() string { return "Page.startScreencast" }

// StopScreencast stops the pictures.
type StopScreencast struct{}

// Method is Page.stopScreencast.
func (StopScreencast) Method() string { return "Page.stopScreencast" }

// ScreencastFrameAck says the picture SessionID was taken: the next may come.
type ScreencastFrameAck struct {
	SessionID int `json:"sessionId"`
}

// Method is Page.screencastFrameAck.
func (ScreencastFrameAck) Method() string { return "Page.screencastFrameAck" }

// Evaluate runs Expression in the page and answers its value.
type Evaluate struct {
	Expression    string `json:"expression"`
	ReturnByValue bool   `json:"returnByValue"`
	AwaitPromise  bool   `json:"awaitPromise,omitempty"` // answer with what the promise the expression gives settles to
	ContextID     int    `json:"contextId,omitempty"`    // the execution context (a world of one document) to run in; the main world when 0
}

// Method is Runtime.evaluate.
func (Evaluate) Method() string { return "Runtime.evaluate" }

// CreateIsolatedWorld makes a world of its own in the frame's document:
// the document's DOM and the window's own properties, without any global
// the page's scripts declared. Its answer's executionContextId is the
// world, for Evaluate's ContextID, until the document goes.
type CreateIsolatedWorld struct {
	FrameID   string `json:"frameId"`
	WorldName string `json:"worldName"`
}

// Method is Page.createIsolatedWorld.
func (CreateIsolatedWorld) Method() string { return "Page.createIsolatedWorld" }

// RuntimeEnable reports the page's execution contexts, those there now
// first (Runtime.executionContextCreated), then each as it comes and goes.
type RuntimeEnable struct{}

// Method is Runtime.enable.
func (RuntimeEnable) Method() string { return "Runtime.enable" }

// RequestPattern is which requests FetchEnable pauses.
type RequestPattern struct {
	URLPattern   string `json:"urlPattern"`
	ResourceType string `json:"resourceType"`
	RequestStage string `json:"requestStage"`
}

// FetchEnable pauses the requests that match Patterns until continued or
// failed.
type FetchEnable struct {
	Patterns []RequestPattern `json:"patterns"`
}

// Method is Fetch.enable.
func (FetchEnable) Method() string { return "Fetch.enable" }

// FailRequest fails the paused request RequestID with ErrorReason.
type FailRequest struct {
	RequestID   string `json:"requestId"`
	ErrorReason string `json:"errorReason"`
}

// Method is Fetch.failRequest.
func (FailRequest) Method() string { return "Fetch.failRequest" }

// ContinueRequest lets the paused request RequestID go on. With
// InterceptResponse its response is paused too, before the page has it.
type ContinueRequest struct {
	RequestID         string `json:"requestId"`
	InterceptResponse bool   `json:"interceptResponse,omitempty"`
}

// Method is Fetch.continueRequest.
func (ContinueRequest) Method() string { return "Fetch.continueRequest" }

// UsageAndQuota asks how much Origin stores.
type UsageAndQuota struct {
	Origin string `json:"origin"`
}

// Method is Storage.getUsageAndQuota.
func (UsageAndQuota) Method() string { return "Storage.getUsageAndQuota" }

// ClearDataForOrigin deletes what Origin stores, of StorageTypes.
type ClearDataForOrigin struct {
	Origin       string `json:"origin"`
	StorageTypes string `json:"storageTypes"`
}

// Method is Storage.clearDataForOrigin.
func (ClearDataForOrigin) Method() string { return "Storage.clearDataForOrigin" }

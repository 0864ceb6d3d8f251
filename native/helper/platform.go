package helper

import (
	"context"
	"image"

	"github.com/buddi-dev/buddi/native/protocol"
)

// Platform is what a helper needs of the operating system. Methods return a
// *protocol.Error when they know the code of a refusal; any other error is
// classified by the call it happened in.
type Platform interface {
	// Probe reports what the mode needs and has. It must never prompt.
	Probe(ctx context.Context) protocol.Permissions
	// RequestPermissions asks the system for what is missing.
	RequestPermissions(ctx context.Context) protocol.Permissions
	// Focused returns the window that has keyboard focus.
	Focused(ctx context.Context) (Window, error)
	// AppByID returns the installed app with this id.
	AppByID(ctx context.Context, id string) (protocol.App, bool, error)
	// AppsNamed returns the installed apps whose name is name in any case.
	// It must launch nothing.
	AppsNamed(ctx context.Context, name string) ([]protocol.App, error)
	// Activate brings app forward, starting it when it is not running, and
	// reports whether it started it. It does not wait for its window.
	Activate(ctx context.Context, app protocol.App) (started bool, err error)
	// OpenURL opens url in an ordinary new tab of the browser app.
	OpenURL(ctx context.Context, browser protocol.App, url string) error
}

// Window is one top-level window and the input that can be sent to it.
type Window interface {
	// Info describes the window; the helper fills in its fingerprint.
	Info() protocol.Window
	// Root is the window's accessibility element.
	Root(ctx context.Context) (Element, error)
	// Resolve finds an element of this window by its locator; it returns a
	// *protocol.Error with CodeTargetGone when the element is gone or
	// belongs to another window.
	Resolve(ctx context.Context, locator string) (Element, error)
	// Capture returns the window's pixels and how many pixels make a point.
	Capture(ctx context.Context) (*image.RGBA, float64, error)
	// Click sends an OS mouse click at a window-relative point.
	Click(ctx context.Context, x, y int) error
	// Typable refuses, before anything is sent, text that Type could not
	// send exactly (a character the keyboard cannot produce).
	Typable(ctx context.Context, text string) error
	// Type sends text as OS keyboard events to the focused element.
	Type(ctx context.Context, text string) error
	// Key sends one allowed key (protocol.KeyAllowed) as OS keyboard events.
	Key(ctx context.Context, key string) error
}

// The input methods (Click, Type, Key, Press, Focus, Clear, Activate, OpenURL)
// return a *protocol.Error only when they sent nothing; any other error
// means the input may have happened.

// Element is one element of a window's accessibility tree.
type Element interface {
	// Locator is how Window.Resolve finds this element again.
	Locator() string
	// Info reads what an observation shows of the element, but its box.
	Info(ctx context.Context) (ElementInfo, error)
	// Box is the element's window-relative box in points; the helper asks
	// only for the elements it keeps.
	Box(ctx context.Context) (protocol.Rect, error)
	// Children are the element's children in order.
	Children(ctx context.Context) ([]Element, error)
	// Press runs the element's own press action; pressed is false when it
	// has none (the helper then clicks its centre).
	Press(ctx context.Context) (pressed bool, err error)
	// Focus gives the element keyboard focus, through the accessibility
	// API or else by clicking it; it sends no text.
	Focus(ctx context.Context) error
	// Clear removes the element's text, or selects it all so that typing
	// replaces it, with OS keyboard events or accessibility calls, never
	// the clipboard.
	Clear(ctx context.Context) error
}

// ElementInfo is what an observation shows of an element, before cleaning.
type ElementInfo struct {
	Role     string // one of protocol.Roles
	Name     string
	Value    string // a text field's text, a slider's value
	Visible  bool
	Secure   bool // a password field
	Editable bool // takes typed text
	States   []protocol.State
}

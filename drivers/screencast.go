package drivers

import (
	"context"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// The remote hand's two optional capabilities. A Tabs that can show its
// active page live implements Screencaster; the page it pins implements
// RawInput when it also takes raw pointer and key input. The hand checks
// both by type assertion and tells the owner when either is missing.

// Screencaster pins the active page of a conversation for the hand. The pin
// holds that exact page: it never follows another tab.
type Screencaster interface {
	Pin(ctx context.Context) (Pinned, error)
}

// Pinned is one page held for the hand.
type Pinned interface {
	// Cast starts (or, called again, restarts with new options) the page's
	// screencast. Each frame is passed to sink, which must not block; a
	// browser that makes its next picture only once told holds it until
	// the frame's Release.
	Cast(ctx context.Context, o CastOptions, sink func(*CastFrame)) error
	// StopCast stops the screencast; sink is called no more.
	StopCast(ctx context.Context) error
	// Gone is closed when the page can no longer be driven (it closed,
	// navigated off the allowed sites, or lost its debugger connection);
	// Why then says which, as one sentence with a code.
	Gone() <-chan struct{}
	Why() *messages.Error
	// Unpin lets go of the page; the pin cannot be used after.
	Unpin()
}

// RawInput takes the hand's pointer and key input on a pinned page.
type RawInput interface {
	Input(ctx context.Context, in *handwire.Input) error
}

// Fitter lays a pinned page out for the owner's touch screen: the page is
// laid out at that screen's size, so it reads at its natural size there,
// until Unfit gives it back the size the agent had (the agent observes
// again after a take-over anyway).
type Fitter interface {
	Fit(ctx context.Context, w, h int) error
	Unfit(ctx context.Context) error
}

// CastOptions bound a screencast's frames.
type CastOptions struct {
	MaxWidth, MaxHeight int
	Quality             int // JPEG quality, 0–100
}

// CastFrame is one picture of the page and where the page was.
type CastFrame struct {
	JPEG   []byte
	Header handwire.FrameHeader // Seq and Step are the pacer's to set
	// Release lets the browser make its next picture (it may be called
	// more than once); nil when the browser does not wait for it.
	Release func()
}

package drivers

import (
	"context"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Readier is an optional capability of a Driver whose browser starts in
// the background (before the first session needs it, and again after it
// died), and of the Tabs it opens. An act waits with Ready before its own
// deadline begins, so the launch never eats the act's time.
type Readier interface {
	// Ready waits until the browser is ready, at most until ctx ends, and
	// says how long it waited. Past ctx it fails with CodeBrowserStarting
	// and a sentence that says when to try again; a launch that failed
	// answers its own sentence (no_browser). A driver starts the browser
	// when nothing is; a conversation's tabs also wait to be reopened
	// after a restart, and wait for nothing when the conversation has
	// news its next call is told at once.
	Ready(ctx context.Context) (time.Duration, error)
}

// Starter is the background start of a Driver that has one.
type Starter interface {
	Readier
	// Start begins starting the browser in the background when it is
	// neither running nor starting, and returns at once.
	Start()
	// Launch says where the browser is in its start, without waiting.
	Launch() messages.BrowserLaunch
}

// ReadierOf is what an act of a conversation waits on before its deadline
// begins: its tabs when it holds them, else the driver; false when neither
// starts anything in the background.
func ReadierOf(d Driver, tabs Tabs) (Readier, bool) {
	if tabs != nil {
		r, ok := tabs.(Readier)
		return r, ok
	}
	r, ok := d.(Readier)
	return r, ok
}

// Warmer is an optional capability of a Mode: starting, in the background,
// the browser its first session will use, so that the first act finds it
// ready. Launch says where that browser is, when the mode has started one.
type Warmer interface {
	Warm()
	Launch() (messages.BrowserLaunch, bool)
}

// Warm starts the browser of the mode in use behind mode in the
// background, when it has one to start.
func Warm(mode Mode) {
	if w, ok := Current(mode).(Warmer); ok {
		w.Warm()
	}
}

// LaunchOf is where the browser of the mode in use behind mode is in its
// start, or nil when that mode starts none in the background.
func LaunchOf(mode Mode) *messages.BrowserLaunch {
	w, ok := Current(mode).(Warmer)
	if !ok {
		return nil
	}
	l, ok := w.Launch()
	if !ok {
		return nil
	}
	return &l
}

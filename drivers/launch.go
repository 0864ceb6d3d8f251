package drivers

import (
	"context"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Starter is an optional capability of a Driver whose browser starts in
// the background: before the first session needs it, and again after it
// died. An act waits for it with Ready before its own deadline begins, so
// the launch never eats the act's time.
type Starter interface {
	// Start begins starting the browser in the background when it is
	// neither running nor starting, and returns at once.
	Start()
	// Ready waits until the browser is ready (starting it when nothing
	// is), at most until ctx ends, and says how long it waited. Past ctx it
	// fails with CodeBrowserStarting and a sentence that says when to try
	// again; a launch that failed answers its own sentence (no_browser).
	Ready(ctx context.Context) (time.Duration, error)
	// Launch says where the browser is in its start, without waiting.
	Launch() messages.BrowserLaunch
}

// StarterOf returns d's background start, if it has one.
func StarterOf(d Driver) (Starter, bool) {
	s, ok := d.(Starter)
	return s, ok
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

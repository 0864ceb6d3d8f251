package pacer

import (
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// Ack tells the pacer the tab drew frame Seq.
type Ack struct{ Seq uint32 }

// PageSize tells the parent the page's size in CSS pixels changed (it
// bounds the owner's pointer).
type PageSize struct{ Width, Height int }

// TooFarBehind tells the parent the tab fell MaxBehind bytes behind.
type TooFarBehind struct{ Bytes int }

// CastFailed tells the parent the screencast's latest start failed: the
// tab would wait for a picture that never comes.
type CastFailed struct{ Err error }

// Stepped tells the parent (and tests) the quality step changed.
type Stepped struct{ Step int }

// Fresh tells the pacer an input of the owner's reached the page at At:
// the picture waiting (made before it) is set aside and the browser is
// asked for its next picture at once, past the pacer's own rate; the one
// set aside is sent FreshFor after At only if no newer one came. With Drop (a
// press, a release or a key, whose effect the owner waits to see), pictures
// the page made before At are not sent either, for FreshFor after it, so
// the first picture sent after the input shows it.
type Fresh struct {
	At   time.Time
	Drop bool
}

// Refit tells the pacer the page was laid out again for a screen of
// Width×Height. Chromium drops the first picture after a resize and makes
// the next only when the page changes again, so on a still page the tab
// would keep the old shape: the screencast starts again, which makes a
// picture at once, bounded for the new shape.
type Refit struct{ Width, Height int }

// frame is one picture from the screencast.
type frame struct{ f *drivers.CastFrame }

// started is the outcome of the gen-th (re)start of the screencast, at step.
type started struct {
	gen, step int
	err       error
}

// tick reconsiders the quality step.
type tick struct{}

// release lets the browser make its next picture, once the pacer's rate allows.
type release struct{}

// freshEnd ends the time pictures made before a press or a key are dropped.
type freshEnd struct{}

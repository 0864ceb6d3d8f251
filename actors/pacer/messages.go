package pacer

import "github.com/buddi-dev/buddi/drivers"

// Ack tells the pacer the tab drew frame Seq.
type Ack struct{ Seq uint32 }

// PageSize tells the parent the page's size in CSS pixels changed (it
// bounds the owner's pointer).
type PageSize struct{ Width, Height int }

// TooFarBehind tells the parent the tab fell MaxBehind bytes behind.
type TooFarBehind struct{ Bytes int }

// Stepped tells the parent (and tests) the quality step changed.
type Stepped struct{ Step int }

// frame is one picture from the screencast.
type frame struct{ f *drivers.CastFrame }

// started is the outcome of (re)starting the screencast at step.
type started struct {
	step int
	err  error
}

// tick reconsiders the quality step.
type tick struct{}

package messages

import (
	"errors"
	"fmt"
)

// Error is what an agent or the owner reads: a stable code and one sentence
// that says what to do next.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	// Observation is fresh evidence that comes with a refusal decided
	// before any input: the page as it is now, so the agent can act again
	// without observing first.
	Observation *Observation `json:"observation,omitempty"`
	// Script is what ran of a script before the step that failed.
	Script *ScriptResult `json:"script,omitempty"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Coded returns e itself: *Error is the contract's own coded error.
func (e *Error) Coded() *Error { return e }

// Errorf builds an *Error with one sentence.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Coded is an error that carries the contract's code and sentence: *Error,
// a driver's error, an egress refusal. Drivers and egress implement it so
// that every failure maps onto the contract in one place, ErrorOf.
type Coded interface {
	error
	Coded() *Error
}

// ErrorOf maps err onto the contract: the first Coded error in its chain,
// or fallback with err's text when there is none.
func ErrorOf(err error, fallback Code) *Error {
	var c Coded
	if errors.As(err, &c) {
		if e := c.Coded(); e != nil {
			return e
		}
	}
	return &Error{Code: fallback, Message: err.Error()}
}

// CodeOf is the code of the first Coded error in err's chain, or "".
func CodeOf(err error) Code {
	var c Coded
	if errors.As(err, &c) {
		if e := c.Coded(); e != nil {
			return e.Code
		}
	}
	return ""
}

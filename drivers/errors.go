package drivers

import (
	"errors"
	"fmt"
)

// Code is a stable machine code for a failure, shown to agents beside a sentence.
type Code string

// Failure codes drivers return. The session decides what each one means for
// its pause rules.
const (
	CodeNoBrowser    Code = "no_browser"    // nothing to launch, or the launch failed
	CodeNotAnswering Code = "not_answering" // observation or capture failed: page busy
	CodeTargetGone   Code = "stale_ref"     // the element is gone or changed
	CodeTargetMiss   Code = "target_not_found"
	CodeTabGone      Code = "tab_gone"        // the tab the agent was reading closed
	CodePartial      Code = "input_uncertain" // input may have half happened
	CodeNavFailed    Code = "navigation_failed"
	CodeTimeout      Code = "timeout"
	CodeNotAllowed   Code = "not_allowed" // blocked by policy (egress, credentials)
	CodeBadInput     Code = "bad_input"
	CodeInterrupted  Code = "interrupted" // Interrupt was called
)

// Error is a driver failure with a code and one sentence for a person.
type Error struct {
	Code    Code
	Message string
	Err     error // the cause, for logs; never shown to an agent
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s (%v)", e.Code, e.Message, e.Err)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error.
func Errorf(code Code, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: cause}
}

// CodeOf returns the code of err, or "" when err is not a driver error.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

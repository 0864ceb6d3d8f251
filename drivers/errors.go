package drivers

import (
	"context"
	"fmt"

	"github.com/buddi-dev/buddi/messages"
)

// Code is the contract's code: drivers speak it directly.
type Code = messages.Code

// Failure codes drivers return. The session decides what each one means for
// its pause rules.
const (
	CodeNoBrowser    = messages.CodeNoBrowser    // nothing to launch, or the launch failed
	CodeNotAnswering = messages.CodeNotAnswering // observation or capture failed: page busy
	CodeTargetGone   = messages.CodeStaleRef     // the element is gone or changed
	CodeTargetMiss   = messages.CodeTargetMiss
	CodeSecretOrigin = messages.CodeSecretOrigin // a secret_fill into a field of an origin the secret is not for
	CodeTabGone      = messages.CodeTabGone      // the tab the agent was reading closed
	CodeTooManyTabs  = messages.CodeTooManyTabs  // the conversation holds MaxTabs tabs
	CodePartial      = messages.CodePartial      // input may have half happened
	CodeNavFailed    = messages.CodeNavFailed
	CodeTimeout      = messages.CodeTimeout
	CodeNotAllowed   = messages.CodeNotAllowed // blocked by policy (egress, credentials)
	CodeBadInput     = messages.CodeBadInput
	CodeInterrupted  = messages.CodeInterrupted // Interrupt was called
	// CodeStarting: the browser is still starting; the sentence says when
	// to try again.
	CodeStarting = messages.CodeBrowserStarting
	// CodeRestarted: the browser died or stopped answering and was started
	// again, with the conversation's tabs reopened at their URLs.
	CodeRestarted = messages.CodeBrowserRestarted
	// CodeUnresponsive: a page stopped answering (or cost the browser too
	// much) and the driver closed it.
	CodeUnresponsive = messages.CodePageUnresponsive
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

// Coded is the failure as the contract says it (the cause stays in logs).
func (e *Error) Coded() *messages.Error { return &messages.Error{Code: e.Code, Message: e.Message} }

var _ messages.Coded = (*Error)(nil)

// Errorf builds an *Error.
func Errorf(code Code, cause error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: cause}
}

// CodeOf returns the code of err, or "" when it carries none.
func CodeOf(err error) Code { return messages.CodeOf(err) }

// ErrNoApps is how a driver without apps refuses open: the browser modes
// have none.
func ErrNoApps() *Error {
	e := messages.CodeNoApps.Err()
	return &Error{Code: e.Code, Message: e.Message}
}

// AppOpener is an optional capability of a conversation's Tabs: opening an
// app (computer mode). Without it, open is refused before it costs a step.
type AppOpener interface {
	OpenApp(ctx context.Context, a *Action) (*Outcome, error)
}

// AppDriver is an optional capability of a Driver: every Tabs it opens is
// an AppOpener. It lets a session refuse open before it holds any tabs.
type AppDriver interface {
	OpensApps() bool
}

// OpensApps reports whether open works on tabs, or, before a session holds
// any (tabs nil), on the tabs d would open.
func OpensApps(d Driver, tabs Tabs) bool {
	if tabs != nil {
		_, ok := tabs.(AppOpener)
		return ok
	}
	a, ok := d.(AppDriver)
	return ok && a.OpensApps()
}

// ErrSecretOrigin refuses a secret_fill into the field ref, whose document
// is of origin, not one of origins (the secret's): nothing was typed.
func ErrSecretOrigin(ref, origin string, origins []string) *Error {
	e := messages.SecretOrigin(ref, origin, origins)
	return &Error{Code: e.Code, Message: e.Message}
}

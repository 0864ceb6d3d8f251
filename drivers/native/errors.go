package native

import (
	"errors"
	"fmt"
	"strings"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/native/protocol"
)

// failure turns a helper's refusal or failure into the contract's error,
// keeping the helper's own sentence: the agent gets the actual error, never
// an empty observation that looks like success. input says whether the
// call was sending input, so an uncertain failure is reported as possibly
// done.
func failure(err error, input, interrupted bool) error {
	if l, ok := err.(*lockErr); ok { //nolint:errorlint // call returns it unwrapped
		return l.err
	}
	var e *protocol.Error
	if !errors.As(err, &e) {
		return drivers.Errorf(drivers.CodeNotAnswering, err, "The computer-control helper failed; observe again in a few seconds.")
	}
	msg := e.Message
	if len(e.Candidates) > 0 {
		msg += " Candidates: " + candidates(e.Candidates) + "."
	}
	if interrupted && e.Code == protocol.CodeCancelled {
		return drivers.Errorf(drivers.CodeInterrupted, err, "The call was interrupted; the owner took over.")
	}
	if e.InputUncertain || e.Code == protocol.CodeInputUncertain {
		if !strings.Contains(msg, "may") {
			msg += " The input may have happened: observe before you do anything else, and do not repeat it blindly."
		}
		return drivers.Errorf(drivers.CodePartial, err, "%s", msg)
	}
	return drivers.Errorf(codeOf(e.Code, input), err, "%s", msg)
}

// candidates lists apps as "Name (id)", for a refusal.
func candidates(apps []protocol.App) string {
	names := make([]string, 0, len(apps))
	for _, c := range apps {
		names = append(names, fmt.Sprintf("%s (%s)", c.Name, c.ID))
	}
	return strings.Join(names, ", ")
}

// codeOf is the contract's code for a helper's code.
func codeOf(c protocol.Code, input bool) drivers.Code {
	switch c {
	case protocol.CodeFocusChanged, protocol.CodeWrongApp, protocol.CodeNoFocusedWindow:
		return drivers.CodeTabGone // the window the agent was reading is not the focused one
	case protocol.CodeTargetGone, protocol.CodeTargetOffscreen, protocol.CodeScreenshotChanged:
		return drivers.CodeTargetGone
	case protocol.CodeSecureField:
		return messages.CodeCredential
	case protocol.CodeAppNotFound:
		return messages.CodeAppNotFound
	case protocol.CodeAppAmbiguous:
		return messages.CodeAppAmbiguous
	case protocol.CodeOutsideWindow, protocol.CodeKeyNotAllowed, protocol.CodeBadRequest, protocol.CodeNotEditable,
		protocol.CodeAppSearchTimeout:
		return drivers.CodeBadInput
	case protocol.CodeBadURL:
		return messages.CodeBadURL
	case protocol.CodeLaunchFailed, protocol.CodeAppNotReady:
		return drivers.CodeNavFailed
	case protocol.CodeNoDisplay, protocol.CodeNoAccessibility, protocol.CodeNoScreenCapture,
		protocol.CodeUnsupportedPlatform, protocol.CodeHelperMissing, protocol.CodeUnsupportedVersion:
		return drivers.CodeNoBrowser
	case protocol.CodeHelperTimeout:
		if input {
			return drivers.CodePartial
		}
		return drivers.CodeTimeout
	}
	return drivers.CodeNotAnswering // no_tree, capture_failed, helper_failed, a crash or malformed answer
}

// lockErr is the desktop lock's refusal, passed to the agent as it is.
type lockErr struct{ err error }

func (e *lockErr) Error() string { return e.err.Error() }
func (e *lockErr) Unwrap() error { return e.err }

// sentence is the one sentence of a helper's failure, for a status line.
func sentence(err error) string {
	var e *drivers.Error
	if errors.As(failure(err, false, false), &e) {
		return e.Message
	}
	return err.Error()
}

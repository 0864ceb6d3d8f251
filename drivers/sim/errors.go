package sim

import (
	"context"
	"errors"

	"github.com/buddi-dev/buddi/drivers"
)

// The sentences agents read. Each says what to do next.

// errClosed is a call on tabs closed under their session. Like the
// playwright driver's closed tabs it is no_browser, which the session
// answers by opening the conversation's tabs again on its next call; as
// tab_gone it paused the session on every act, for good.
func errClosed() error {
	return drivers.Errorf(drivers.CodeNoBrowser, nil, "This conversation's tabs were closed; observe again to open a new blank tab.")
}

func errTabGone() error {
	return drivers.Errorf(drivers.CodeTabGone, nil, "The active tab is closed; list the tabs and switch to one, or open a new tab.")
}

func errStale() error {
	return drivers.Errorf(drivers.CodeTargetGone, nil, "The page changed since that element was observed; observe again and use a fresh ref.")
}

func errUnknownRef(ref string) error {
	return drivers.Errorf(drivers.CodeTargetGone, nil, "%s is not an element of this page; observe again and use a fresh ref.", ref)
}

func errOtherTab(tab string) error {
	return drivers.Errorf(drivers.CodeTargetGone, nil, "That element is on tab %s, which is not the active tab; switch to it and observe again.", tab)
}

func errMiss() error {
	return drivers.Errorf(drivers.CodeTargetMiss, nil, "Nothing answered at that element; observe again and retry.")
}

func errPartial(k drivers.Kind) error {
	return drivers.Errorf(drivers.CodePartial, nil, "The %s may have only half happened; observe the page before retrying.", k)
}

func errNotAnswering() error {
	return drivers.Errorf(drivers.CodeNotAnswering, nil, "The page did not answer; wait a moment and observe again.")
}

func errInterrupted() error {
	return drivers.Errorf(drivers.CodeInterrupted, nil, "The call was interrupted and the page kept as it was; observe again before acting.")
}

func errBadInput(format string, args ...any) error {
	return drivers.Errorf(drivers.CodeBadInput, nil, format, args...)
}

// errContext turns a finished context into a driver error: a deadline is a
// timeout, a cancellation an interruption.
func errContext(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return drivers.Errorf(drivers.CodeTimeout, err, "The call ran out of time; observe the page and try again.")
	}
	return drivers.Errorf(drivers.CodeInterrupted, err, "The call was cancelled; observe the page before acting again.")
}

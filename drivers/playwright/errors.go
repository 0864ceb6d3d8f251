package playwright

import (
	"errors"
	"strings"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// errInterrupted is the cancellation cause Interrupt gives the running call.
var errInterrupted = errors.New("playwright: interrupted")

// errPopupRefused: a popup's document was refused before its tab was set
// up; the tab is closed. errReported is the refusal of a popup whose
// window.open was refused, and reported, already.
var (
	errPopupRefused = errors.New("playwright: the popup's document was refused")
	errReported     = errors.New("playwright: the window.open was refused already")
)

// errClosing refuses a document to a tab buddi is closing.
var errClosing = errors.New("playwright: the tab is closing")

// errNoBrowserSession: the context has no browser to open a browser-level
// DevTools session on, so document requests could not be checked.
var errNoBrowserSession = errors.New("playwright: the browser context has no browser-level DevTools session")

const msgNotAnswering = "The page has not answered yet. Wait a few seconds and observe again."

func fail(code drivers.Code, cause error, msg string) *drivers.Error {
	return &drivers.Error{Code: code, Message: msg, Err: cause}
}

func notAnswering(cause error) error {
	return fail(drivers.CodeNotAnswering, cause, msgNotAnswering)
}

func interrupted() error {
	return fail(drivers.CodeInterrupted, errInterrupted, "The call was interrupted: the owner took over or stopped it.")
}

func staleRef(ref, why string) error {
	return fail(drivers.CodeTargetGone, nil, "The element "+ref+" "+why+"; observe again and use the new ref.")
}

func badInput(msg string) error { return fail(drivers.CodeBadInput, nil, msg) }

// refusal turns a hook's error into the driver error the agent reads: a
// coded error (an egress refusal) keeps its code and sentence, anything
// else is not_allowed.
func refusal(err error) error {
	var de *drivers.Error
	if errors.As(err, &de) {
		return de
	}
	e := messages.ErrorOf(err, drivers.CodeNotAllowed)
	return fail(e.Code, err, sentence(e.Message))
}

// sentence makes one line of text out of a message.
func sentence(s string) string {
	s = strings.TrimSpace(strings.SplitN(s, "\n", 2)[0])
	if s == "" {
		return "It was refused."
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// isTimeout reports whether a Playwright call failed on its own timeout.
func isTimeout(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Timeout ") && strings.Contains(err.Error(), "exceeded")
}

// isClosed reports whether a Playwright call failed because its page, context
// or browser went away.
func isClosed(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "has been closed") || strings.Contains(s, "Target closed") ||
		strings.Contains(s, "target closed") || strings.Contains(s, "Browser closed")
}

// netError extracts the net::ERR_* name from a navigation failure, if any.
func netError(err error) string {
	s := err.Error()
	i := strings.Index(s, "net::ERR_")
	if i < 0 {
		return ""
	}
	j := i
	for j < len(s) && (s[j] == '_' || s[j] == ':' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= 'a' && s[j] <= 'z') {
		j++
	}
	return s[i:j]
}

// message is the sentence of a driver error, or the error's text.
func message(err error) string {
	var de *drivers.Error
	if errors.As(err, &de) {
		return de.Message
	}
	return sentence(err.Error())
}

// asDriverError returns err as a *drivers.Error, or nil.
func asDriverError(err error) *drivers.Error {
	var de *drivers.Error
	if errors.As(err, &de) {
		return de
	}
	return nil
}

package extension

import (
	"errors"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

func fail(code drivers.Code, cause error, msg string) *drivers.Error {
	return &drivers.Error{Code: code, Message: msg, Err: cause}
}

func badInput(msg string) error { return fail(drivers.CodeBadInput, nil, msg) }

func staleRef(ref, why string) error {
	return fail(drivers.CodeTargetGone, nil, "The element "+ref+" "+why+"; observe again.")
}

func notAnswering(cause error) error {
	return fail(drivers.CodeNotAnswering, cause, "The page has not answered yet. Wait a few seconds and observe again.")
}

// fromExtension turns the extension's refusal into the driver's error,
// keeping its code and its sentence.
func fromExtension(e *messages.Error) error {
	if e == nil {
		return nil
	}
	return &drivers.Error{Code: e.Code, Message: e.Message}
}

// refusal keeps a policy error's code and sentence (CheckURL, CheckField).
func refusal(err error) error {
	var de *drivers.Error
	if errors.As(err, &de) {
		return de
	}
	if c := messages.CodeOf(err); c != "" {
		return &drivers.Error{Code: c, Message: err.Error()}
	}
	return fail(drivers.CodeNotAllowed, err, err.Error())
}

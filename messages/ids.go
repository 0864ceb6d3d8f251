package messages

import (
	"regexp"
	"time"
)

// Task bounds.
const (
	DefaultSteps    = 80
	MaxSteps        = 80
	DefaultLifetime = 20 * time.Minute
	MaxLifetime     = 20 * time.Minute
	MaxDescription  = 2000
)

var agentPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// convChars marks the bytes of a conversation id: letters and digits
// anywhere, and after the first, '.', '_' and '-'.
var convChars = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			t[c] = convFirst | convRest
		case c == '.', c == '_', c == '-':
			t[c] = convRest
		}
	}
	return t
}()

const (
	convFirst = 1 << iota
	convRest
)

// validConversation is ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$, checked on every
// agent call without a regular expression.
func validConversation(c string) bool {
	if len(c) == 0 || len(c) > 64 || convChars[c[0]]&convFirst == 0 {
		return false
	}
	for i := 1; i < len(c); i++ {
		if convChars[c[i]]&convRest == 0 {
			return false
		}
	}
	return true
}

// CheckConversation validates a conversation id.
func CheckConversation(c string) *Error {
	if !validConversation(c) {
		return Errorf(CodeBadInput, "The conversation id %q is not valid; use 1 to 64 letters, digits, dots, dashes or underscores.", c)
	}
	return nil
}

// CheckAgentName validates an agent's name.
func CheckAgentName(name string) *Error {
	if !agentPattern.MatchString(name) {
		return Errorf(CodeBadInput, "The agent name %q is not valid; use 1 to 32 lowercase letters, digits, dashes or underscores, starting with a letter.", name)
	}
	return nil
}

// DecodeTask parses and validates browser.task input.
func DecodeTask(raw []byte) (*TaskInput, *Error) {
	var in TaskInput
	if len(raw) == 0 || decodeStrict(raw, &in) != nil {
		return nil, &Error{Code: CodeBadInput, Message: "browser.task needs {\"description\": \"…\"} with optional steps and minutes."}
	}
	if e := in.Check(); e != nil {
		return nil, e
	}
	return &in, nil
}

// Check validates browser.task input that decoded.
func (in *TaskInput) Check() *Error {
	if in.MoveTo != "" {
		if in.Description != "" || in.Steps != 0 || in.Minutes != 0 {
			return &Error{Code: CodeBadInput, Message: "browser.task with moveTo moves the session and takes nothing else; ask for a task in a separate call."}
		}
		return nil
	}
	if in.Description == "" || len(in.Description) > MaxDescription {
		return Errorf(CodeBadInput, "browser.task needs a description of 1 to %d characters.", MaxDescription)
	}
	return CheckText("The task description", in.Description, false)
}

// Budget is what an agent's task request is granted: what it asked for,
// within the bounds, and the defaults where it asked for nothing.
func (in *TaskInput) Budget() (steps int, life time.Duration) {
	steps = min(max(in.Steps, 0), MaxSteps)
	life = min(time.Duration(max(in.Minutes, 0))*time.Minute, MaxLifetime)
	return steps, life
}

// CheckTask validates an owner's StartTask before any state is looked at.
func CheckTask(m *StartTask) *Error {
	if e := CheckConversation(m.Conversation); e != nil {
		return e
	}
	if m.Description == "" {
		return &Error{Code: CodeBadInput, Message: "A task needs a description of what the agent should do."}
	}
	if m.Steps < 0 || m.Steps > MaxSteps {
		return Errorf(CodeBadInput, "The step budget %d is out of range; use 1 to %d.", m.Steps, MaxSteps)
	}
	if m.Lifetime < 0 || m.Lifetime > MaxLifetime {
		return Errorf(CodeBadInput, "The lifetime %s is out of range; use at most %s.", m.Lifetime, MaxLifetime)
	}
	return nil
}

package grains

import (
	"errors"
	"fmt"
)

// Sentinels a caller checks with errors.Is.
var (
	// ErrClosed is returned by Request after Shutdown.
	ErrClosed = errors.New("grains: this member has left the cluster; call another member")
	// ErrUnavailable is returned when no member could take the session
	// before ctx ended: the message was not sent, and may be sent again.
	ErrUnavailable = errors.New("grains: no member could take this session in time; retry, or check the cluster's members")
	// ErrNoAnswer is returned when the message was sent but no answer
	// came before ctx ended: it is not known whether the session acted on
	// it, so observe before sending it again.
	ErrNoAnswer = errors.New("grains: the session did not answer in time, so it is not known whether it acted; observe it before retrying")
	// ErrNoRoom is matched by a *NoRoomError: every member of the cluster
	// holds its Capacity of sessions, so the message was not sent.
	ErrNoRoom = errors.New("grains: every member of the cluster is full")
)

// CodeTooManySessions is the stable code a caller gives a *NoRoomError.
const CodeTooManySessions = "too_many_sessions"

// NoRoomError is a new session that no member had room for: Members
// members, each at its Capacity, hold Sessions sessions in all. The
// message was not sent. errors.Is(err, ErrNoRoom) matches it.
type NoRoomError struct {
	Members  int
	Sessions int
}

func (e *NoRoomError) Error() string {
	if e.Members == 1 {
		return fmt.Sprintf("Every member of the cluster is full: 1 member holds at most %s; release a session or add a member.",
			sessions(e.Sessions))
	}
	return fmt.Sprintf("Every member of the cluster is full: %d members hold at most %s in all; release a session or add a member.",
		e.Members, sessions(e.Sessions))
}

// Is matches ErrNoRoom.
func (e *NoRoomError) Is(target error) bool { return target == ErrNoRoom }

func sessions(n int) string {
	if n == 1 {
		return "1 session"
	}
	return fmt.Sprintf("%d sessions", n)
}

// UnknownTypeError is a message whose type is not in the Registry.
type UnknownTypeError struct{ Type string }

func (e *UnknownTypeError) Error() string {
	return fmt.Sprintf("grains: the message type %s is not registered; register it on every member", e.Type)
}

// MalformedError is an envelope that does not decode.
type MalformedError struct{ Reason string }

func (e *MalformedError) Error() string {
	return "grains: a message envelope is malformed: " + e.Reason + "."
}

// failureName is Failure's registered name.
const failureName = "grains.Failure"

// Failure is an answer that reports a refusal instead of a result: a
// grain replies with one, and Request returns it as its error. Code is
// stable for machines; Message is one sentence for people.
type Failure struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (f *Failure) Error() string { return f.Message }

// Codes of the Failures this package answers itself.
const (
	CodeUnknownType = "unknown_type"
	CodeMalformed   = "malformed"
)

func failureOf(err error) *Failure {
	var u *UnknownTypeError
	if errors.As(err, &u) {
		return &Failure{Code: CodeUnknownType, Message: err.Error()}
	}
	return &Failure{Code: CodeMalformed, Message: err.Error()}
}

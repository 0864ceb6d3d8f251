package messages

import "time"

// SessionState is pushed by a session to its controller whenever its state
// changes, so listing sessions never waits on them.
type SessionState struct{ Info SessionInfo }

// SessionEnded tells the controller a session is over (released, expired,
// budget spent). The controller ends the task and stops the actor.
type SessionEnded struct {
	Conversation string
	Reason       string // one sentence that says what got done
	Code         Code   // released, expired or budget_spent
	// TaskCreated is when the ending session's task was made: an end that
	// arrives after a newer task of the conversation started (its session
	// was let go while its tabs closed) names another task, and ends none.
	TaskCreated time.Time
}

// GiveBack asks a take-over's hand to let go: stop accepting input, finish
// what it accepted, release held keys and buttons, stop the screencast, and
// answer HandReleased.
type GiveBack struct{}

// HandReleased is the hand's answer to GiveBack.
type HandReleased struct{}

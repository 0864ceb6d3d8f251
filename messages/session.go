package messages

// Between the controller and its sessions.

// SessionEnded tells the controller a session is over (released, expired,
// budget spent). The controller ends the task and stops the actor.
type SessionEnded struct {
	Conversation string
	Reason       string // one sentence that says what got done
	Code         string // "released", "expired", "budget_spent"
}

// SessionState is pushed by a session to the controller whenever it changes.
type SessionState struct{ Info SessionInfo }

// Screenshots asks a session for its kept thumbnails (owner only); the
// controller forwards it and the session answers with an *OwnerReply.
type Screenshots struct{ Conversation string }

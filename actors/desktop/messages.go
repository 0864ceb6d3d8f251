package desktop

import (
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Acquire asks for the lock for Conversation, or renews its lease; answered
// with *Held or *Refused.
type Acquire struct{ Conversation string }

// Held says the conversation controls the computer until Expires, unless it
// calls again before then.
type Held struct{ Expires time.Time }

// Refused says why the conversation cannot control the computer now.
type Refused struct{ Err *messages.Error }

// Release gives the lock back if Conversation holds it; answered with
// *Released.
type Release struct{ Conversation string }

// Released acknowledges a Release.
type Released struct{}

// Revoke is the owner's Stop of computer control: the holder loses the lock
// and nobody gets it until Resume. Answered with *Saved once the ledger has
// it.
type Revoke struct{}

// Resume lifts a Revoke; answered with *Saved.
type Resume struct{}

// Saved acknowledges Revoke and Resume; Err is the ledger's failure, if any.
type Saved struct{ Err error }

// Hold keeps the lease of Conversation, if it holds the lock, from running
// out while On: the owner has taken the conversation over, at the computer.
// When it turns off the lease starts again from then. Not answered.
type Hold struct {
	Conversation string
	On           bool
}

// Query asks for the lock's state; answered with *State.
type Query struct{}

// State is the lock as it stands.
type State struct {
	Holder  string
	Expires time.Time
	Revoked bool
	Kept    bool // the holder is taken over: its lease does not run out
}

package ledger

import (
	"encoding/json"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Stop is the global Stop: while Stopped, no browser work runs.
type Stop struct {
	Stopped bool      `json:"stopped"`
	At      time.Time `json:"at"`
}

// Owner holds the owner token's hash.
type Owner struct {
	TokenHash string    `json:"tokenHash"`
	Created   time.Time `json:"created"`
}

// Agent is a named tool caller. Its ID is given once and never reused: a
// name removed and added again is another agent, with none of the first
// one's tasks or sessions.
type Agent struct {
	ID          string    `json:"id,omitempty"`
	Name        string    `json:"name"`
	TokenHash   string    `json:"tokenHash"`
	Grants      []string  `json:"grants"`
	AutoApprove bool      `json:"autoApprove"`
	Created     time.Time `json:"created"`
}

// Task states, as the contract names them.
const (
	TaskPending = messages.TaskPending // asked for by an agent, not yet decided
	TaskActive  = messages.TaskActive  // the owner gave it
	TaskEnded   = messages.TaskEnded   // budget, expiry or release ended it
	TaskRefused = messages.TaskRefused // the owner said no
)

// Task is owner-given authority for one conversation.
type Task struct {
	Conversation string        `json:"conversation"`
	Agent        string        `json:"agent"`             // the agent's name, as the owner sees it
	AgentID      string        `json:"agentId,omitempty"` // the agent it belongs to (Agent.ID)
	Description  string        `json:"description"`
	State        string        `json:"state"`
	MaxSteps     int           `json:"maxSteps"`
	Lifetime     time.Duration `json:"lifetime"`
	Created      time.Time     `json:"created"`
	Started      time.Time     `json:"started,omitzero"`
	Expires      time.Time     `json:"expires,omitzero"`
	// Ended is when the task ended or was refused: the retention ages its
	// conversation's records from it.
	Ended     time.Time `json:"ended,omitzero"`
	EndReason string    `json:"endReason,omitempty"`
}

// Session is what survives a session actor's restart or a daemon restart.
type Session struct {
	Conversation string    `json:"conversation"`
	Agent        string    `json:"agent"`
	ID           string    `json:"id"`
	Profile      int       `json:"profile"`
	Expires      time.Time `json:"expires"`
	Paused       bool      `json:"paused"`
	PauseReason  string    `json:"pauseReason,omitempty"`
	TakenOver    bool      `json:"takenOver"`
	StepsUsed    int       `json:"stepsUsed"`
	// Epoch rises at every restart and owner control: requests of an older
	// epoch are fenced off and the agent must observe afresh.
	Epoch int `json:"epoch"`
}

// Moved notes that a conversation's session moved to a new id: calls on
// the old id are refused, naming the new one.
type Moved struct {
	From string    `json:"from"`
	To   string    `json:"to"`
	At   time.Time `json:"at"`
}

// SiteOnce is a site the owner allowed once, for one conversation. The
// approval is stored as its owner (the controller) encoded it.
type SiteOnce struct {
	Conversation string          `json:"conversation"`
	Approval     json.RawMessage `json:"approval"`
	At           time.Time       `json:"at"`
}

// Refusal is one entry of the air-gap refusal record.
type Refusal struct {
	Conversation string    `json:"conversation"`
	Agent        string    `json:"agent"`
	Action       string    `json:"action"`
	URL          string    `json:"url"`
	Code         string    `json:"code"`
	At           time.Time `json:"at"`
}

// AirGap is the air-gap setting buddi last started with.
type AirGap struct {
	On bool      `json:"on"`
	At time.Time `json:"at"`
	// Sites held logins in the browser profile that turning air-gap on
	// removed.
	Sites []string `json:"sites,omitempty"`
}

// Steps is how many steps a conversation's current task has used.
type Steps struct {
	Used int `json:"u"`
}

// Telegram is the owner's paired Telegram chat.
type Telegram struct {
	User     int64     `json:"user"`
	Chat     int64     `json:"chat"`
	Name     string    `json:"name,omitempty"`
	PairedAt time.Time `json:"pairedAt"`
}

// Bound is one conversation bound to the paired chat.
type Bound struct {
	Conversation string    `json:"conversation"`
	At           time.Time `json:"at"`
}

// Device is a browser signed in to the dashboard: only its cookie's hash is
// kept.
type Device struct {
	ID        string    `json:"id"`
	TokenHash string    `json:"tokenHash"`
	Label     string    `json:"label"`
	Created   time.Time `json:"created"`
	Expires   time.Time `json:"expires"`
	// Tailnet is the tailnet identity that signed the device in, if any.
	Tailnet *messages.TailnetIdentity `json:"tailnet,omitempty"`
}

// Desktop is the desktop lock of Use my apps: the conversation that controls
// the computer until Expires, and whether the owner stopped computer
// control (Revoked), which holds across restarts until they resume it.
type Desktop struct {
	Holder  string    `json:"holder,omitempty"`
	Expires time.Time `json:"expires,omitzero"`
	Revoked bool      `json:"revoked"`
	At      time.Time `json:"at"`
}

// AppAnswer is the owner's answer about an app in one conversation of Use
// my apps: once (it may be opened there) or reject (it is refused there,
// with no second card).
type AppAnswer struct {
	Conversation string    `json:"conversation"`
	App          string    `json:"app"`
	Name         string    `json:"name,omitempty"` // the app's name as installed, when the card had it
	Decision     string    `json:"decision"`
	At           time.Time `json:"at"`
}

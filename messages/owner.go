package messages

import "time"

// Owner controls. Each is answered with *OwnerReply.

// StartTask mints a task for one conversation (owner only).
type StartTask struct {
	Agent        string
	Conversation string
	Description  string
	Steps        int
	Lifetime     time.Duration
}

// DecideTask accepts or refuses a task an agent asked for.
type DecideTask struct {
	Conversation string
	Accept       bool
}

// ListTasks asks for the tasks, pending and active.
type ListTasks struct{}

// TakeOver pauses a conversation's agent for the owner.
type TakeOver struct{ Conversation string }

// Resume hands a taken-over or paused session back to the agent.
type Resume struct{ Conversation string }

// Release ends one session and closes its tabs.
type Release struct{ Conversation string }

// StopAll revokes all browser access until ResumeAll (persisted).
type StopAll struct{}

// ResumeAll lifts a Stop.
type ResumeAll struct{}

// ListSessions asks the controller for every session's state.
type ListSessions struct{}

// OwnerReply answers an owner control. Result is JSON-encodable.
type OwnerReply struct {
	Result any
	Error  *Error
}

// SessionInfo is one session as the owner sees it.
type SessionInfo struct {
	Conversation string    `json:"conversation"`
	Agent        string    `json:"agent"`
	State        string    `json:"state"`
	PauseReason  string    `json:"pauseReason,omitempty"`
	Task         string    `json:"task"`
	StepsUsed    int       `json:"stepsUsed"`
	StepsMax     int       `json:"stepsMax"`
	Expires      time.Time `json:"expires"`
	URL          string    `json:"url,omitempty"`
	Profile      int       `json:"profile"`
}

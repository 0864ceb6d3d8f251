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
	// Surface is where the owner started it: a task started from Telegram
	// binds its conversation to the paired chat.
	Surface Surface
}

// DecideTask accepts or refuses a task an agent asked for.
type DecideTask struct {
	Conversation string
	Accept       bool
	Surface      Surface // where the owner answered; see StartTask
}

// ListTasks asks for the tasks, pending and active.
type ListTasks struct{}

// TakeOver pauses a conversation's agent for the owner.
type TakeOver struct{ Conversation string }

// Resume hands a taken-over or paused session back to the agent.
type Resume struct{ Conversation string }

// Release ends one session and closes its tabs. Why says what ended it, in
// the task's summary; empty, it was the owner's release.
type Release struct {
	Conversation string
	Why          string
}

// StopAll revokes all browser access until ResumeAll (persisted).
type StopAll struct{}

// ResumeAll lifts a Stop.
type ResumeAll struct{}

// ListSessions asks the controller for every session's state.
type ListSessions struct{}

// Screenshots asks a session for its kept thumbnails (owner only).
type Screenshots struct{ Conversation string }

// AddAgent registers an agent; the answer carries its token once.
type AddAgent struct {
	Name        string
	AutoApprove bool
}

// RemoveAgent deletes an agent and its grants.
type RemoveAgent struct{ Name string }

// ListAgents lists agents (never their tokens).
type ListAgents struct{}

// ListSiteRequests asks for the pending site requests.
type ListSiteRequests struct{}

// Site decisions.
const (
	DecideOnce   = "once"
	DecideAlways = "always"
	DecideReject = "reject"
)

// DecideSite answers one site request: Decision is once, always or reject.
type DecideSite struct {
	Conversation string
	Site         string
	Decision     string
}

// GetHealth asks the controller for what /healthz shows; answered with *Health.
type GetHealth struct{}

// OwnerReply answers an owner control: Result or Error is set.
type OwnerReply struct {
	Result Answer
	Error  *Error
}

// OwnerFail is an OwnerReply carrying an error.
func OwnerFail(e *Error) *OwnerReply { return &OwnerReply{Error: e} }

// Conversational is an owner control aimed at one conversation's session.
type Conversational interface{ Target() string }

// Target is the conversation the control is for.
func (m *TakeOver) Target() string { return m.Conversation }

// Target is the conversation the control is for.
func (m *Resume) Target() string { return m.Conversation }

// Target is the conversation the control is for.
func (m *Release) Target() string { return m.Conversation }

// Target is the conversation the control is for.
func (m *Screenshots) Target() string { return m.Conversation }

// ListSites asks for the owner's answers about sites: approvals and
// rejections.
type ListSites struct{}

// RevokeSite forgets every answer about a site: its approvals (durably)
// and its rejection; the agent is asked again next time.
type RevokeSite struct{ Site string }

// ListLogins asks which sites hold logins in the agents' browser profile.
type ListLogins struct{}

// SignOut clears one site's cookies and stored data from the agents'
// browser profile, or every site's with All.
type SignOut struct {
	Site string
	All  bool
}

// InstallBrowser starts installing the agents' browser, or reports the
// install already under way; answered with *InstallState.
type InstallBrowser struct{}

// GetInstall asks where the browser install stands.
type GetInstall struct{}

package messages

import "time"

// The dashboard's pushed updates: one events WebSocket carries Frames as
// JSON text messages. The first frame after every (re)connection is a
// hello with the full state; every later frame carries the new state of
// one thing (state, not deltas), so a client that missed frames needs only
// the next hello. The socket sends a fresh hello whenever its queue had to
// drop events.

// Frame types.
const (
	FrameHello    = "hello"
	FrameSession  = "session"
	FrameTask     = "task"
	FrameApproval = "approval"
	FrameStep     = "step"
	FrameStop     = "stop"
	FrameSnapshot = "snapshot"
	FrameInstall  = "install"
	FrameMoved    = "moved"
)

// Frame is one pushed update; Type says which field is set.
type Frame struct {
	Type     string         `json:"type"`
	Hello    *Hello         `json:"hello,omitempty"`
	Session  *SessionInfo   `json:"session,omitempty"`
	Ended    bool           `json:"ended,omitempty"` // the session is over and its place free
	Task     *TaskView      `json:"task,omitempty"`
	Approval *SiteRequest   `json:"approval,omitempty"`
	Decision string         `json:"decision,omitempty"` // the owner's answer to Approval, once given
	Step     *TimelineEntry `json:"step,omitempty"`
	Stop     *StopView      `json:"stop,omitempty"`
	Snapshot *Snapshot      `json:"snapshot,omitempty"`
	Install  *Install       `json:"install,omitempty"`
	Moved    *MovedView     `json:"moved,omitempty"`
	At       time.Time      `json:"at,omitzero"` // when the change happened
}

// MovedView is a move as the dashboard follows it: a view of From now
// shows To.
type MovedView struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Agent string `json:"agent"`
}

// Hello is the whole state a dashboard shows, sent when the socket opens.
type Hello struct {
	Sessions  SessionList  `json:"sessions"`
	Tasks     TaskList     `json:"tasks"`
	Approvals SiteRequests `json:"approvals"`
	Stop      StopView     `json:"stop"`
	Mode      string       `json:"mode"`
	Version   string       `json:"version"`
	Install   *Install     `json:"install,omitempty"`
}

// StopView is the global Stop as the dashboard shows it.
type StopView struct {
	Stopped  bool `json:"stopped"`
	Settled  bool `json:"settled"`
	Saved    bool `json:"saved"`
	Sessions int  `json:"sessions"`
}

// Install is the progress of the browser install the owner started.
type Install struct {
	Running bool      `json:"running"`
	Lines   []string  `json:"lines"`           // the installer's last lines
	Done    bool      `json:"done"`            // it finished, well or not
	Error   *Error    `json:"error,omitempty"` // why it failed
	Started time.Time `json:"started"`
}

// Timeline entry kinds.
const (
	EntryStep     = "step"
	EntryApproval = "approval"
	EntryTask     = "task"
)

// TimelineEntry is one thing that happened in a conversation, as the
// conversation view lists it.
type TimelineEntry struct {
	Kind         string    `json:"kind"`
	Conversation string    `json:"conversation"`
	At           time.Time `json:"at"`
	// A step: the act, its outcome or refusal code, where it left the page.
	Action    string `json:"action,omitempty"`
	Outcome   string `json:"outcome,omitempty"`
	Code      Code   `json:"code,omitempty"`
	URL       string `json:"url,omitempty"`
	StepsUsed int    `json:"stepsUsed,omitempty"`
	StepsMax  int    `json:"stepsMax,omitempty"`
	TookMs    int64  `json:"tookMs,omitempty"`
	// An approval: the site asked about and the owner's answer once given.
	Site     string `json:"site,omitempty"`
	Decision string `json:"decision,omitempty"`
	// A task: its state and what it is for, or why it ended.
	State string `json:"state,omitempty"`
	Text  string `json:"text,omitempty"`
}

// StepEntry is a step as the timeline lists it.
func StepEntry(e *StepTaken) TimelineEntry {
	return TimelineEntry{Kind: EntryStep, Conversation: e.Conversation, At: e.At, Action: e.Action,
		Outcome: e.Outcome, Code: e.Code, URL: e.URL, StepsUsed: e.StepsUsed, StepsMax: e.StepsMax,
		TookMs: e.Took.Milliseconds()}
}

// Timeline is one conversation as the conversation view shows it: what
// happened, oldest first, and its session's last snapshot, kept after the
// session ends.
type Timeline struct {
	Conversation string          `json:"conversation"`
	Agent        string          `json:"agent"`
	Live         bool            `json:"live"` // its session is running
	Entries      []TimelineEntry `json:"entries"`
	Snapshot     *Snapshot       `json:"snapshot,omitempty"`
	// MovedTo is set when the conversation moved: its history is there.
	MovedTo string `json:"movedTo,omitempty"`
}

// ConversationView is one conversation in the list of recent ones.
type ConversationView struct {
	Conversation string    `json:"conversation"`
	Agent        string    `json:"agent"`
	Live         bool      `json:"live"`
	Last         time.Time `json:"last"`
}

// ConversationList answers the list of recent conversations, newest first.
type ConversationList []ConversationView

func (*Timeline) answer()        {}
func (ConversationList) answer() {}
func (*Install) answer()         {}

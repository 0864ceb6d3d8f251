package messages

import "time"

// Event is a change the actors push to subscribers (the dashboard, Telegram,
// tests). Events carry state, not deltas: a newer event with the same Key
// replaces an older one still waiting in a slow subscriber's queue.
type Event interface {
	Kind() EventKind
	// Key names what the event describes; equal keys coalesce.
	Key() EventKey
	// About is the conversation the event is about, "" for all of them.
	About() string
}

// EventKey names what an event describes, without building a string: its
// kind, the conversation (or other name) it is about, a second name where
// one is not enough, and a number that keeps apart events each of which
// counts.
type EventKey struct {
	Kind  EventKind
	Name  string
	Other string
	N     int64
}

// EventKind tells events apart for filters.
type EventKind uint16

// The kinds of event.
const (
	KindSession  EventKind = 1 << iota // SessionChanged
	KindTask                           // TaskChanged
	KindApproval                       // ApprovalRequested
	KindStep                           // StepTaken
	KindStop                           // StopChanged
	KindTelegram                       // TelegramChanged
	KindInstall                        // InstallChanged
	KindSnapshot                       // SnapshotTaken
	KindMoved                          // ConversationMoved
	KindAll      = KindSession | KindTask | KindApproval | KindStep | KindStop | KindTelegram | KindInstall | KindSnapshot | KindMoved
)

// SessionChanged says a session's state, steps, page or pause reason changed.
// Ended is set once, when the controller has let the session go: its place
// is free and its conversation may start a new task.
type SessionChanged struct {
	Session SessionInfo
	Ended   bool
	At      time.Time
}

// TaskChanged says a task was asked for, started, refused or ended.
type TaskChanged struct {
	Task TaskView
	At   time.Time
}

// ApprovalRequested says an agent waits for the owner to approve a site,
// and, with Decision set, that the owner answered (once, always or reject):
// the answer replaces the request in a slow subscriber's queue.
type ApprovalRequested struct {
	Request  SiteRequest
	Decision string
}

// StepTaken says one act of an agent finished, with its outcome or refusal.
type StepTaken struct {
	Conversation string
	Agent        string
	Action       string
	Code         Code   // "" when it succeeded
	Reason       string // the refusal's sentence when Code is set
	Outcome      string // the outcome, or "observed"
	Words        string // the step in words, for people: "Clicked link “Sign in”"
	URL          string
	Title        string // the page's title after the step
	// Page names the page the step left on screen: reads of a page nothing
	// acted on since (and no owner control came between) share it, so a
	// surface that already showed the page can skip them.
	Page      string
	StepsUsed int
	StepsMax  int
	// Picture is a JPEG of the viewport after the step, taken when the
	// conversation is bound to a surface that shows every step (Telegram).
	// Shared by every subscriber: never changed.
	Picture []byte
	// PictureApp is, in Use my apps, the app whose window Picture shows,
	// by id ("" elsewhere, or when it could not be told); PictureAppOnce
	// says the owner allowed that app once for this conversation.
	PictureApp     string
	PictureAppOnce bool
	At             time.Time
	// Took is how long the act ran, from dispatch to its result.
	Took time.Duration
}

// SnapshotTaken is the owner's view of a session's page after an act: a
// JPEG of the viewport as the browser renders it (password fields show as
// the browser masks them), taken only while someone watches (see
// events.Bus.Watched), so an unwatched agent pays nothing for it.
type SnapshotTaken struct {
	Snapshot Snapshot
}

// StopChanged says the owner stopped all browser access, or lifted the Stop.
// A Stop acts first and persists second, so it is published as it goes:
// at once, when every session dropped its work (Settled), and when the
// ledger has it (Saved).
type StopChanged struct {
	Stopped  bool
	Settled  bool // every session dropped its action and closed its tabs
	Saved    bool // the ledger has it: it survives a crash
	Sessions int  // sessions that closed their tabs so far
	At       time.Time
}

// Kind is KindSession.
func (*SessionChanged) Kind() EventKind { return KindSession }

// Key is the session's conversation.
func (e *SessionChanged) Key() EventKey {
	return EventKey{Kind: KindSession, Name: e.Session.Conversation}
}

// About is the session's conversation.
func (e *SessionChanged) About() string { return e.Session.Conversation }

// Kind is KindTask.
func (*TaskChanged) Kind() EventKind { return KindTask }

// Key is the task's conversation.
func (e *TaskChanged) Key() EventKey { return EventKey{Kind: KindTask, Name: e.Task.Conversation} }

// About is the task's conversation.
func (e *TaskChanged) About() string { return e.Task.Conversation }

// Kind is KindApproval.
func (*ApprovalRequested) Kind() EventKind { return KindApproval }

// Key is the conversation and the site asked about.
func (e *ApprovalRequested) Key() EventKey {
	return EventKey{Kind: KindApproval, Name: e.Request.Conversation, Other: e.Request.Site}
}

// About is the conversation that asked.
func (e *ApprovalRequested) About() string { return e.Request.Conversation }

// Kind is KindStep.
func (*StepTaken) Kind() EventKind { return KindStep }

// Key is the conversation and the moment: every step is kept (a timeline
// and a photo per step need each one), within the subscriber's bound.
func (e *StepTaken) Key() EventKey {
	return EventKey{Kind: KindStep, Name: e.Conversation, N: e.At.UnixNano()}
}

// About is the conversation that acted.
func (e *StepTaken) About() string { return e.Conversation }

// Kind is KindSnapshot.
func (*SnapshotTaken) Kind() EventKind { return KindSnapshot }

// Key is the conversation: only the newest snapshot matters.
func (e *SnapshotTaken) Key() EventKey {
	return EventKey{Kind: KindSnapshot, Name: e.Snapshot.Conversation}
}

// About is the conversation whose page it shows.
func (e *SnapshotTaken) About() string { return e.Snapshot.Conversation }

// Kind is KindStop.
func (*StopChanged) Kind() EventKind { return KindStop }

// Key is the one global Stop.
func (*StopChanged) Key() EventKey { return EventKey{Kind: KindStop} }

// About is "": the Stop is about every conversation.
func (*StopChanged) About() string { return "" }

// InstallChanged says where the browser install stands: a progress line
// came, or it ended.
type InstallChanged struct {
	State InstallState
}

// Kind is KindInstall.
func (*InstallChanged) Kind() EventKind { return KindInstall }

// Key is the one install.
func (*InstallChanged) Key() EventKey { return EventKey{Kind: KindInstall} }

// About is "": the install is the whole install's.
func (*InstallChanged) About() string { return "" }

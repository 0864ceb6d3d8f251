package messages

import "time"

// Answer is what an agent or the owner receives on success: one of the
// structs in this file. Every JSON shape the API sends is declared here.
type Answer interface{ answer() }

// Observation answers observe.
type Observation struct {
	ID         string    `json:"observation"`
	ObservedAt time.Time `json:"observedAt"`
	Text       string    `json:"text"` // a line with the time, then the tree inside the untrusted-content fence
	URL        string    `json:"url"`
	Title      string    `json:"title"`
	Tab        string    `json:"tab"`
	Tabs       []Tab     `json:"tabs"`
	StepsLeft  int       `json:"stepsLeft"`
	Truncated  bool      `json:"truncated,omitempty"`
	// Continues is what to send back to read the next part, when the read
	// did not fit; Left is how many links, fields, buttons and headings the
	// rest holds.
	Continues  *Continuation `json:"continues,omitempty"`
	Left       *int          `json:"left,omitempty"`
	Screenshot []byte        `json:"screenshot,omitempty"` // JPEG, base64 in JSON
}

// Continuation says how to read the next part of a read that did not fit:
// its JSON is exactly the observe options to send back (fullPage or
// within, and after). Left is reported beside it, not in it.
type Continuation struct {
	FullPage bool   `json:"fullPage,omitempty"`
	Within   string `json:"within,omitempty"`
	After    string `json:"after"`
	Left     int    `json:"-"`
}

// Outcome answers every other single action.
type Outcome struct {
	Outcome    string `json:"outcome"` // loaded, load_pending, navigated, same_page, done
	StepsLeft  int    `json:"stepsLeft"`
	URL        string `json:"url,omitempty"`
	Title      string `json:"title,omitempty"`
	Tabs       []Tab  `json:"tabs,omitempty"`
	Text       string `json:"text,omitempty"` // dom, console: inside the fence
	Screenshot []byte `json:"screenshot,omitempty"`
	Width      int    `json:"width,omitempty"`
	Height     int    `json:"height,omitempty"`
	Next       string `json:"next,omitempty"` // after an action that may have changed the page
}

// ScriptResult answers a script.
type ScriptResult struct {
	Steps     []ScriptStep `json:"steps"`
	StepsLeft int          `json:"stepsLeft"`
}

// ScriptStep is one step of a script that ran.
type ScriptStep struct {
	Step            int    `json:"step"`
	Action          string `json:"action"`
	Outcome         string `json:"outcome"`
	URL             string `json:"url,omitempty"`
	Text            string `json:"text,omitempty"`
	ScreenshotBytes int    `json:"screenshotBytes,omitempty"`
}

// Closed answers an agent's close.
type Closed struct {
	Closed bool   `json:"closed"`
	Text   string `json:"text"`
}

// Status answers browser.status while the conversation has a session.
type Status struct {
	Session   SessionInfo   `json:"session"`
	Browser   BrowserStatus `json:"browser"`
	StepsLeft int           `json:"stepsLeft"`
	Expires   time.Time     `json:"expires"`
	Task      string        `json:"task"`
	Stopped   bool          `json:"stopped"`
}

// NoSessionStatus answers browser.status while the conversation has no
// session (or all access is stopped).
type NoSessionStatus struct {
	Mode         string         `json:"mode"`
	Stopped      bool           `json:"stopped"`
	Conversation string         `json:"conversation"`
	State        string         `json:"state"` // always "no_session"
	Browser      *BrowserStatus `json:"browser,omitempty"`
	Task         string         `json:"task,omitempty"`
	TaskState    string         `json:"taskState,omitempty"`
	Ended        string         `json:"ended,omitempty"`
}

// TaskAnswer answers browser.task: pending, or active with the task.
type TaskAnswer struct {
	State string    `json:"state"`
	Task  *TaskView `json:"task,omitempty"`
	Text  string    `json:"text"`
}

// AgentAdded answers AddAgent: the token is shown this once.
type AgentAdded struct {
	Name        string   `json:"name"`
	Token       string   `json:"token"`
	Grants      []string `json:"grants"`
	AutoApprove bool     `json:"autoApprove"`
}

// AgentRemoved answers RemoveAgent.
type AgentRemoved struct {
	Removed string `json:"removed"`
}

// StopResult answers StopAll once every session dropped its work.
type StopResult struct {
	Stopped  bool `json:"stopped"`
	Sessions int  `json:"sessions"`
}

// ResumeResult answers ResumeAll.
type ResumeResult struct {
	Stopped bool `json:"stopped"`
}

// SiteDecision answers DecideSite.
type SiteDecision struct {
	Site     string `json:"site"`
	Decision string `json:"decision"`
}

// Health answers Health; the HTTP surface adds what only it knows.
type Health struct {
	OK            bool   `json:"ok"`
	Version       string `json:"version"`
	UptimeSeconds int    `json:"uptimeSeconds"`
	Mode          string `json:"mode"`
	Stopped       bool   `json:"stopped"`
	Sessions      int    `json:"sessions"`
	Restarts      int    `json:"restarts"`
	// Unhandled counts messages an actor received and did not know.
	Unhandled int `json:"unhandled,omitempty"`
}

// SessionList answers ListSessions, by conversation.
type SessionList []SessionInfo

// TaskList answers ListTasks, oldest first.
type TaskList []TaskView

// AgentList answers ListAgents, by name.
type AgentList []AgentView

// SiteRequests answers ListSiteRequests, oldest first.
type SiteRequests []SiteRequest

// Shots answers Screenshots, oldest first.
type Shots []Shot

func (*Observation) answer()     {}
func (*Outcome) answer()         {}
func (*ScriptResult) answer()    {}
func (*Closed) answer()          {}
func (*Status) answer()          {}
func (*NoSessionStatus) answer() {}
func (*TaskAnswer) answer()      {}
func (*AgentAdded) answer()      {}
func (*AgentRemoved) answer()    {}
func (*StopResult) answer()      {}
func (*ResumeResult) answer()    {}
func (*SiteDecision) answer()    {}
func (*Health) answer()          {}
func (*SessionInfo) answer()     {}
func (*TaskView) answer()        {}
func (SessionList) answer()      {}
func (TaskList) answer()         {}
func (AgentList) answer()        {}
func (SiteRequests) answer()     {}
func (Shots) answer()            {}

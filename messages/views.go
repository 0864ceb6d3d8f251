package messages

import "time"

// Session states as the owner and agents read them.
const (
	StateReady     = "ready"
	StateWorking   = "working"
	StatePaused    = "paused"
	StateTakenOver = "taken_over"
	StateClosing   = "closing"
	StateStopped   = "stopped" // the owner's Stop closed its tabs; nothing runs until access is resumed
	StateNoSession = "no_session"
)

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
	// Computer is set in Use my apps: the session works in the owner's own
	// apps, so the owner takes over at the computer itself.
	Computer bool `json:"computer,omitempty"`
	// HandReason says, while the page is taken over, why there is no page
	// to drive: HandBrowserOffline when Your browser's extension is not
	// connected (the owner opens Chrome, or uses buddi's browser instead).
	HandReason string `json:"handReason,omitempty"`
	// Driving says, while the page is taken over, that a dashboard tab
	// drives it now: another tab offers to take the hand instead of
	// taking it.
	Driving bool `json:"driving,omitempty"`
	// PageAt is when the page last may have changed (a step that could
	// change it, a give back, a Stop): a picture taken before it is not a
	// picture of the page as it is.
	PageAt time.Time `json:"pageAt,omitzero"`
}

// HandBrowserOffline is the hand reason of a take-over in Your browser with
// the extension offline.
const HandBrowserOffline = "browser-offline"

// Task states.
const (
	TaskPending = "pending" // asked for by an agent, not yet decided
	TaskActive  = "active"  // the owner gave it
	TaskEnded   = "ended"   // budget, expiry or release ended it
	TaskRefused = "refused" // the owner said no
)

// TaskView is one task as the owner and its agent see it.
type TaskView struct {
	Conversation string        `json:"conversation"`
	Agent        string        `json:"agent"`
	Description  string        `json:"description"`
	State        string        `json:"state"`
	MaxSteps     int           `json:"maxSteps"`
	Lifetime     time.Duration `json:"lifetime"`
	Created      time.Time     `json:"created"`
	Started      time.Time     `json:"started"`
	Expires      time.Time     `json:"expires"`
	EndReason    string        `json:"endReason,omitempty"`
}

// AgentView is one agent as the owner sees it (never its token).
type AgentView struct {
	Name        string    `json:"name"`
	Grants      []string  `json:"grants"`
	AutoApprove bool      `json:"autoApprove"`
	Created     time.Time `json:"created"`
}

// SiteRequest is an agent's navigation waiting for the owner's approval.
type SiteRequest struct {
	Conversation string    `json:"conversation"`
	Agent        string    `json:"agent"`
	Site         string    `json:"site"` // "app:<id>" when the request is about an app
	URL          string    `json:"url"`
	App          string    `json:"app,omitempty"`     // Use my apps: the app's id, when the request is about an app
	AppName      string    `json:"appName,omitempty"` // its name as installed, when the agent opened it by name
	At           time.Time `json:"at"`
}

// Shot is a kept screenshot: a thumbnail, not the capture the model saw.
type Shot struct {
	At   time.Time `json:"at"`
	JPEG []byte    `json:"jpeg"`
	URL  string    `json:"url"`
}

// Tab names one of a conversation's tabs. Its title is the page's text:
// agents read it inside their answer's fence, never as a field.
type Tab struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Title  string `json:"-"`
	Active bool   `json:"active"`
}

// BrowserStatus is what a driver reports about itself.
type BrowserStatus struct {
	Driver   string `json:"driver"`            // "playwright", "sim"
	Browser  string `json:"browser,omitempty"` // path or channel of the browser
	Found    bool   `json:"found"`             // a browser is available
	Headless bool   `json:"headless"`          // no display to show it on
	Running  bool   `json:"running"`           // the browser is launched now
	Problem  string `json:"problem,omitempty"` // one sentence when not usable
	// Launch is where the browser is in its start, for a driver that
	// starts one in the background (the agents' own browser).
	Launch *BrowserLaunch `json:"launch,omitempty"`
}

// Where a browser started in the background is: BrowserLaunch.State.
const (
	LaunchIdle     = "idle"     // nothing started yet (the next act starts it)
	LaunchStarting = "starting" // a launch is under way
	LaunchReady    = "ready"    // the browser answers
	LaunchFailed   = "failed"   // the last launch failed: Problem says why
)

// BrowserLaunch is where the agents' browser is in its start: what
// /healthz, doctor and the dashboard show.
type BrowserLaunch struct {
	State string    `json:"state"` // idle, starting, ready or failed
	Since time.Time `json:"since"` // when it entered the state
	// Problem is the one sentence of a failed launch.
	Problem string `json:"problem,omitempty"`
	// TookMs is how long the latest launch that finished took.
	TookMs int64 `json:"tookMs,omitempty"`
	// Restarts counts the browsers started again after one died or stopped
	// answering.
	Restarts int `json:"restarts,omitempty"`
	// Load is the machine's load per core the launch's bounds were scaled
	// by (1 on an idle machine).
	Load float64 `json:"load,omitempty"`
}

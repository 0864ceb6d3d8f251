package messages

import (
	"encoding/json"
	"slices"
	"time"
)

// Answer is what an agent or the owner receives on success: one of the
// structs in this file. Every JSON shape the API sends is declared here.
type Answer interface{ answer() }

// Everything read from a page (titles, tab titles, trees, text, console
// lines) reaches the agent inside the one fenced block of its answer's
// "text"; the fields beside it are buddi's own (ids, outcomes, URLs,
// counts). Title fields are kept for buddi's surfaces and never sent.

// AuthenticatedUser is what a dom read says about who is signed in: buddi
// cannot tell, and the page's own words about it are not evidence.
const AuthenticatedUser = "unknown"

// Observation answers observe, and an action sent with thenObserve: then
// Outcome is the action's (as Outcome's), and the rest the page after it.
type Observation struct {
	Outcome    string    `json:"outcome,omitempty"`
	ID         string    `json:"observation"`
	ObservedAt time.Time `json:"observedAt"`
	// Text is a line with the time, then inside the untrusted-content fence
	// the page's title, its tabs, the tree, and the targets: every ref with
	// its role and name, one element each.
	Text  string `json:"text"`
	URL   string `json:"url"`
	Title string `json:"-"`
	Tab   string `json:"tab"`
	// Tabs lists the conversation's tabs when there is more than the one
	// the observation names.
	Tabs      []Tab `json:"tabs,omitempty"`
	StepsLeft int   `json:"stepsLeft"`
	Truncated bool  `json:"truncated,omitempty"`
	// Continues is what to send back to read the next part, when the read
	// did not fit; Left is how many links, fields, buttons and headings the
	// rest holds.
	Continues  *Continuation `json:"continues,omitempty"`
	Left       *int          `json:"left,omitempty"`
	Screenshot []byte        `json:"screenshot,omitempty"` // JPEG, base64 in JSON
	Timing     *Timing       `json:"timing,omitempty"`

	lent // the memory Text lies in, when it is lent (Lease)
}

// Timing says what an answer waited for besides its own act: set only
// when it waited for the browser to start (the act's own deadline began
// once the browser was ready).
type Timing struct {
	BrowserWaitMs int64 `json:"browserWaitMs"`
}

// WaitedFor is the timing of an act that waited d for the browser, or nil
// when it did not wait.
func WaitedFor(d time.Duration) *Timing {
	if d < time.Millisecond {
		return nil
	}
	return &Timing{BrowserWaitMs: d.Milliseconds()}
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
	Outcome   string `json:"outcome"` // loaded, load_pending, navigated, same_page, done
	StepsLeft int    `json:"stepsLeft"`
	URL       string `json:"url,omitempty"`
	Title     string `json:"-"`
	Tabs      []Tab  `json:"tabs,omitempty"`
	// Text is the fenced block of what the action read: the title, the
	// tabs, and dom or console text.
	Text string `json:"text,omitempty"`
	// AuthenticatedUser is always "unknown" on a dom read.
	AuthenticatedUser string  `json:"authenticatedUser,omitempty"`
	Screenshot        []byte  `json:"screenshot,omitempty"`
	Width             int     `json:"width,omitempty"`
	Height            int     `json:"height,omitempty"`
	Next              string  `json:"next,omitempty"` // after an action that may have changed the page
	Timing            *Timing `json:"timing,omitempty"`

	lent // the memory Text lies in, when it is lent (Lease)
}

// ScriptResult answers a script, and tells what ran of one that failed.
type ScriptResult struct {
	Steps []ScriptStep `json:"steps"`
	// Text is the fenced block of what the steps read, step by step.
	Text              string  `json:"text,omitempty"`
	AuthenticatedUser string  `json:"authenticatedUser,omitempty"`
	StepsLeft         int     `json:"stepsLeft"`
	Next              string  `json:"next,omitempty"`
	Timing            *Timing `json:"timing,omitempty"`
}

// ScriptStep is one step of a script: what it did, or how it failed.
type ScriptStep struct {
	Step            int    `json:"step"`
	Action          string `json:"action"`
	Outcome         string `json:"outcome,omitempty"`
	URL             string `json:"url,omitempty"`
	ScreenshotBytes int    `json:"screenshotBytes,omitempty"`
	Code            Code   `json:"code,omitempty"` // the step failed: the script stopped here
	Message         string `json:"message,omitempty"`
	// Read is the page text the step read, before it is fenced into the
	// result's Text; never sent on its own.
	Read  string `json:"-"`
	Title string `json:"-"`
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
	Reach     *Reach        `json:"reach,omitempty"`
	StepsLeft int           `json:"stepsLeft"`
	Expires   time.Time     `json:"expires"`
	Task      string        `json:"task"`
	Stopped   bool          `json:"stopped"`
}

// MarshalJSON writes the session's conversation and state at the top too,
// where the answer without a session (NoSessionStatus) has them, so that
// an agent reads its state in one place whether or not it has a session.
func (s Status) MarshalJSON() ([]byte, error) {
	type fields Status // without this method
	return json.Marshal(struct {
		Conversation string `json:"conversation"`
		State        string `json:"state"`
		*fields
	}{s.Session.Conversation, s.Session.State, (*fields)(&s)})
}

// Reach is what the install lets the browser open, as agents are told:
// air-gap, the host list, and the owner's preview origins.
type Reach struct {
	AirGap bool `json:"airGap,omitempty"`
	// AirGapByEnv says BUDDI_AIR_GAP sets it: only a restart without it
	// lifts it (else the owner turns it off in the dashboard's Settings).
	AirGapByEnv bool     `json:"-"`
	Hosts       []string `json:"hosts,omitempty"`
	Previews    []string `json:"previews,omitempty"`
}

// NoSessionStatus answers browser.status while the conversation has no
// session, or while all access is stopped (its session's own report is
// not asked for then).
type NoSessionStatus struct {
	Mode         string         `json:"mode"`
	Stopped      bool           `json:"stopped"`
	Conversation string         `json:"conversation"`
	State        string         `json:"state"` // "no_session", or "stopped" for a session the owner's Stop holds
	Browser      *BrowserStatus `json:"browser,omitempty"`
	Reach        *Reach         `json:"reach,omitempty"`
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
	Removed  string `json:"removed"`
	Sessions int    `json:"sessions"` // its sessions the removal ended
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

// SiteGrant is one of the owner's answers about a site: approved always
// (kept across restarts), once for a conversation (kept with it), or
// rejected (install-wide, for the life of the process).
type SiteGrant struct {
	Site         string `json:"site"`
	Scheme       string `json:"scheme,omitempty"`
	Query        string `json:"query,omitempty"`
	Scope        string `json:"scope"` // always, once or rejected
	Conversation string `json:"conversation,omitempty"`
}

// Scopes of a SiteGrant.
const (
	ScopeAlways   = "always"
	ScopeOnce     = "once"
	ScopeRejected = "rejected"
)

// SiteGrants answers ListSites, by site.
type SiteGrants []SiteGrant

// SiteRevoked answers RevokeSite: how many answers about the site it removed.
type SiteRevoked struct {
	Site    string `json:"site"`
	Removed int    `json:"removed"`
}

// Login is a site that holds a login in the agents' browser profile:
// cookies, or data it stored (local storage, databases).
type Login struct {
	Site    string `json:"site"`
	Cookies int    `json:"cookies"`
	Storage bool   `json:"storage"`
}

// Logins answers ListLogins, by site.
type Logins []Login

// SignedOut answers SignOut: the sites whose cookies and storage were
// cleared.
type SignedOut struct {
	Sites []string `json:"sites"`
}

// Browser install states.
const (
	InstallIdle    = "idle"
	InstallRunning = "running"
	InstallDone    = "done"
	InstallFailed  = "failed"
)

// InstallState answers InstallBrowser and GetInstall: where the browser
// install stands, its progress lines so far, and the problem when it failed.
type InstallState struct {
	State   string    `json:"state"`
	Lines   []string  `json:"lines,omitempty"`
	Problem string    `json:"problem,omitempty"`
	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended,omitzero"`
}

// Health answers Health; the HTTP surface adds what only it knows.
type Health struct {
	OK            bool   `json:"ok"`
	Version       string `json:"version"`
	UptimeSeconds int    `json:"uptimeSeconds"`
	Mode          string `json:"mode"`
	Stopped       bool   `json:"stopped"`
	Sessions      int    `json:"sessions"`
	// States counts the sessions in each state (ready, stopped, ...).
	States   map[string]int `json:"states,omitempty"`
	Restarts int            `json:"restarts"`
	// Unhandled counts messages an actor received and did not know.
	Unhandled int `json:"unhandled,omitempty"`
	// Capacity is this host's browser profiles and sessions.
	Capacity Capacity `json:"capacity"`
	// Cluster is this member's view of the cluster; absent on one host.
	Cluster *ClusterHealth `json:"cluster,omitempty"`
	// Browser is where the agents' browser is in its start, in a mode that
	// starts one in the background.
	Browser *BrowserLaunch `json:"browser,omitempty"`
}

// ClusterHealth is a cluster member's view of etcd: "reachable" or
// "unreachable", with the sentence it refuses new work with, and the
// members as etcd last listed them (while etcd is unreachable, the last
// list it gave).
type ClusterHealth struct {
	// Membership is who keeps the member list conversations are routed
	// by: etcd or k8s.
	Membership string `json:"membership"`
	Etcd       string `json:"etcd"`
	Problem    string `json:"problem,omitempty"`
	// Lapsed says, when this member's entry in the member list lapsed
	// since it started, what follows and what to do (restart it).
	Lapsed  string          `json:"lapsed,omitempty"`
	Members []ClusterMember `json:"members"`
	// Routes are the cluster addresses (host:port) of the members this
	// one places conversations on, itself included: a member listed but
	// not here has not proved it holds the cluster's key yet.
	Routes []string `json:"routes"`
}

// Liveness is /healthz for anyone but the owner: buddi answers, and which
// version it is.
type Liveness struct {
	OK      bool   `json:"ok"`
	Version string `json:"version"`
}

// SessionList answers ListSessions, by conversation.
type SessionList []SessionInfo

// TaskList answers ListTasks, oldest first.
type TaskList []TaskView

// AgentList answers ListAgents, by name.
type AgentList []AgentView

// SiteRequests answers ListSiteRequests, oldest first.
type SiteRequests []SiteRequest

// Waiting lists the requests of a gate's waiting set, oldest first.
func Waiting(pending map[string]*SiteRequest) SiteRequests {
	out := make(SiteRequests, 0, len(pending))
	for _, r := range pending {
		out = append(out, *r)
	}
	out.OldestFirst()
	return out
}

// OldestFirst sorts the requests by when they were asked, keeping the order
// of those asked at the same time.
func (r SiteRequests) OldestFirst() {
	slices.SortStableFunc(r, func(a, b SiteRequest) int { return a.At.Compare(b.At) })
}

// Shots answers Screenshots, oldest first.
type Shots []Shot

func (*Observation) answer()     {}
func (SiteGrants) answer()       {}
func (*SiteRevoked) answer()     {}
func (Logins) answer()           {}
func (*SignedOut) answer()       {}
func (*InstallState) answer()    {}
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
func (*Liveness) answer()        {}
func (*SessionInfo) answer()     {}
func (*TaskView) answer()        {}
func (SessionList) answer()      {}
func (TaskList) answer()         {}
func (AgentList) answer()        {}
func (SiteRequests) answer()     {}
func (Shots) answer()            {}

// Forwarded is an answer another member of a cluster gave, as the JSON it
// sent: it goes on to the caller as it came.
type Forwarded json.RawMessage

func (Forwarded) answer() {}

// MarshalJSON is the answer's own JSON ("null" for none).
func (f Forwarded) MarshalJSON() ([]byte, error) {
	if len(f) == 0 {
		return []byte("null"), nil
	}
	return f, nil
}

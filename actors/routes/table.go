package routes

import (
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
)

// Table is the controller's routing table.
type Table struct {
	mu       sync.RWMutex
	agents   map[string]Agent // by token hash
	sessions map[string]*Session
	stopped  bool
	askSites bool
}

// Agent is who a token belongs to and what it may call.
type Agent struct {
	ID     string // never reused (ledger.Agent.ID)
	Name   string
	Grants []string
}

// Granted reports whether the agent may call tool.
func (a Agent) Granted(tool string) bool {
	return slices.Contains(a.Grants, "browser.*") || slices.Contains(a.Grants, tool)
}

// Session is one running session: where it runs, for whom, and what it
// last showed.
type Session struct {
	PID     *actor.PID
	Agent   string // the agent's name
	AgentID string // the agent it runs for
	shown   atomic.Pointer[messages.SessionInfo]
	// working, above zero, says the session works on an act that took it
	// to that many steps, and is otherwise as shown (ShowWorking).
	working atomic.Int64
}

// Show records the session's latest state; only the session calls it.
func (s *Session) Show(info messages.SessionInfo) { s.ShowShared(&info) }

// ShowShared records info as the session's latest state without a copy:
// the caller shares it (with the event that tells it) and never changes it
// again.
func (s *Session) ShowShared(info *messages.SessionInfo) {
	s.working.Store(0) // first: a reader meanwhile sees the state before
	s.shown.Store(info)
}

// ShowWorking records info, the session working on an act, without
// building a state for it, when info is what was shown last but for its
// state (working) and its steps; it reports false, and records nothing,
// otherwise: then the caller shows info whole. A session nobody watches
// begins every act so, and spares an allocation per act.
func (s *Session) ShowWorking(info messages.SessionInfo) bool {
	p := s.shown.Load()
	if p == nil || info.State != messages.StateWorking || info.StepsUsed <= 0 {
		return false
	}
	was := *p
	was.State, was.StepsUsed = info.State, info.StepsUsed
	if was != info {
		return false
	}
	s.working.Store(int64(info.StepsUsed))
	return true
}

// Shown is the session's latest state.
func (s *Session) Shown() messages.SessionInfo {
	for {
		w := s.working.Load()
		p := s.shown.Load()
		if s.working.Load() != w {
			continue // the session showed itself meanwhile: read again
		}
		var info messages.SessionInfo
		if p != nil {
			info = *p
		}
		if w > 0 {
			info.State, info.StepsUsed = messages.StateWorking, int(w)
		}
		return info
	}
}

// New returns an empty table.
func New() *Table {
	return &Table{agents: map[string]Agent{}, sessions: map[string]*Session{}}
}

// PutAgent lets the token with hash call as a.
func (t *Table) PutAgent(hash string, a Agent) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.agents[hash] = a
}

// RemoveAgent revokes the token with hash.
func (t *Table) RemoveAgent(hash string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.agents, hash)
}

// PutSession routes conv's calls to s.
func (t *Table) PutSession(conv string, s *Session) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sessions[conv] = s
}

// DropSession stops routing conv's calls to a session.
func (t *Table) DropSession(conv string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.sessions, conv)
}

// SetStopped records whether all browser access is stopped.
func (t *Table) SetStopped(on bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stopped = on
}

// SetAskSites records whether agent-chosen navigations ask the owner.
func (t *Table) SetAskSites(on bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.askSites = on
}

// Direct returns the session a call may go to without the controller, and
// who makes it: the token is known and granted the tool, access is not
// stopped, the conversation's session runs for that agent, no navigation
// of the call needs the owner's site answers, and it opens no app (Use my
// apps asks the owner about apps off the list).
func (t *Table) Direct(c *messages.ToolCall) (pid *actor.PID, agent string, ok bool) {
	if c.Tool != messages.ToolAct && c.Tool != messages.ToolStatus {
		return nil, "", false
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	a, known := t.agents[c.TokenHash]
	s := t.sessions[c.Conversation]
	if !known || !a.Granted(c.Tool) || t.stopped || s == nil || s.AgentID != a.ID {
		return nil, "", false
	}
	if c.Act != nil && (NeedsSiteCheck(c.Act, t.askSites) || c.Act.Action == "open") {
		return nil, "", false // an app's open goes past the owner's app answers
	}
	return s.PID, a.Name, true
}

// NeedsSiteCheck reports whether an act has a navigation the owner's site
// answers must cover: a page link always, any navigation when the owner
// asked to be asked.
func NeedsSiteCheck(in *messages.ActInput, askSites bool) bool {
	needs := func(s *messages.ActInput) bool {
		return s != nil && s.Action == "navigate" && (askSites || s.URLSource == messages.URLFromPage)
	}
	if messages.Spec(in.Action).Run != messages.RunScript {
		return needs(in)
	}
	for _, s := range in.Steps {
		if needs(s) {
			return true
		}
	}
	return false
}

// Sessions lists every running session's latest state, by conversation.
func (t *Table) Sessions() messages.SessionList {
	t.mu.RLock()
	out := make(messages.SessionList, 0, len(t.sessions))
	for _, s := range t.sessions {
		out = append(out, s.Shown())
	}
	t.mu.RUnlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Conversation < out[j].Conversation })
	return out
}

// Session returns conv's session, or nil when none runs here.
func (t *Table) Session(conv string) *Session {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.sessions[conv]
}

// Holds reports whether conv's session runs here.
func (t *Table) Holds(conv string) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.sessions[conv] != nil
}

// AgentOf names the agent of conv's session, or "" when none runs here.
func (t *Table) AgentOf(conv string) string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if s := t.sessions[conv]; s != nil {
		return s.Shown().Agent
	}
	return ""
}

// AgentName names the agent whose token hashes to hash, or "" when none does.
func (t *Table) AgentName(hash string) string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.agents[hash].Name
}

// Reset forgets every agent and session: a restarted controller pushes its
// own view again.
func (t *Table) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.agents = map[string]Agent{}
	t.sessions = map[string]*Session{}
}

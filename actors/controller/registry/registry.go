// Package registry is the controller's book of agents and their tokens:
// who exists, which token hash speaks for whom, and what each may call. It
// holds no lock; its owner (the controller actor) is its only user. Tokens
// are shown once, when an agent is added, and only their hashes are kept.
package registry

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sort"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// GrantAll is the grant every agent gets: all browser tools.
const GrantAll = "browser.*"

// Registry holds the agents by name and by token hash.
type Registry struct {
	byName map[string]ledger.Agent
	byHash map[string]string
}

// New returns a registry of the agents the ledger holds. An agent stored
// before agents had IDs gets one; those are returned for the caller to store.
func New(agents []ledger.Agent) (r *Registry, given []ledger.Agent) {
	r = &Registry{byName: map[string]ledger.Agent{}, byHash: map[string]string{}}
	for _, ag := range agents {
		if ag.ID == "" {
			ag.ID = newID()
			given = append(given, ag)
		}
		r.Put(ag)
	}
	return r, given
}

// newID is an agent ID: 128 random bits, so no ID is ever given twice.
func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand never fails on Linux; it panics if it cannot
	return "ag_" + hex.EncodeToString(b)
}

// Put adds or replaces an agent.
func (r *Registry) Put(ag ledger.Agent) {
	r.byName[ag.Name] = ag
	r.byHash[ag.TokenHash] = ag.Name
}

// New makes an agent record and its token for the owner's AddAgent; the
// agent is not in the registry until Put.
func (r *Registry) New(m *messages.AddAgent, now time.Time) (ag ledger.Agent, token string, e *messages.Error) {
	if e := messages.CheckAgentName(m.Name); e != nil {
		return ag, "", e
	}
	if m.Name == messages.OwnerAgent {
		return ag, "", messages.Errorf(messages.CodeAgentExists,
			"%s is the built-in agent of your own browsing; choose another name.", m.Name)
	}
	if _, ok := r.byName[m.Name]; ok {
		return ag, "", messages.Errorf(messages.CodeAgentExists,
			"Agent %s already exists; remove it first (`buddi agent remove %s`) to issue a new token.", m.Name, m.Name)
	}
	token = secret.New("ba_")
	return ledger.Agent{ID: newID(), Name: m.Name, TokenHash: secret.Hash(token), Grants: []string{GrantAll},
		AutoApprove: m.AutoApprove, Created: now}, token, nil
}

// Remove takes an agent out; its token stops working at once.
func (r *Registry) Remove(name string) (ledger.Agent, *messages.Error) {
	ag, ok := r.byName[name]
	if !ok {
		return ag, messages.Errorf(messages.CodeUnknownAgent, "There is no agent %q; `buddi agent list` shows them.", name)
	}
	delete(r.byName, name)
	delete(r.byHash, ag.TokenHash)
	return ag, nil
}

// Get returns the agent called name; the built-in owner agent is known
// by name but has no token, so no call is ever made as it.
func (r *Registry) Get(name string) (ledger.Agent, bool) {
	if name == messages.OwnerAgent {
		return ledger.Agent{Name: name, Grants: []string{GrantAll}}, true
	}
	ag, ok := r.byName[name]
	return ag, ok
}

// All lists every agent.
func (r *Registry) All() []ledger.Agent {
	out := make([]ledger.Agent, 0, len(r.byName))
	for _, ag := range r.byName {
		out = append(out, ag)
	}
	return out
}

// ByToken returns the agent whose token hashes to hash.
func (r *Registry) ByToken(hash string) (ledger.Agent, bool) {
	name, ok := r.byHash[hash]
	if !ok {
		return ledger.Agent{}, false
	}
	return r.Get(name)
}

// Call resolves an agent call's token and grant: the agent, or the refusal.
func (r *Registry) Call(c *messages.ToolCall) (ledger.Agent, *messages.Error) {
	ag, ok := r.ByToken(c.TokenHash)
	if !ok {
		return ag, &messages.Error{Code: messages.CodeUnauthorized,
			Message: "The agent token was not recognised; create one with `buddi agent add NAME`."}
	}
	if !Granted(ag, c.Tool) {
		return ag, messages.Errorf(messages.CodeNotGranted,
			"Agent %s has no grant for %s; the owner can re-add it with the browser.* grant.", ag.Name, c.Tool)
	}
	return ag, nil
}

// Granted reports whether ag may call tool.
func Granted(ag ledger.Agent, tool string) bool {
	for _, g := range ag.Grants {
		if g == GrantAll || g == tool {
			return true
		}
	}
	return false
}

// List is every agent as the owner sees it, by name.
func (r *Registry) List() messages.AgentList {
	out := make(messages.AgentList, 0, len(r.byName))
	for _, ag := range r.byName {
		out = append(out, messages.AgentView{Name: ag.Name, Grants: ag.Grants,
			AutoApprove: ag.AutoApprove, Created: ag.Created})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Added is the owner's one view of a new agent's token.
func Added(ag ledger.Agent, token string) *messages.AgentAdded {
	return &messages.AgentAdded{Name: ag.Name, Token: token, Grants: ag.Grants, AutoApprove: ag.AutoApprove}
}

// Unknown is the refusal of a task for an agent that does not exist.
func Unknown(name string) *messages.Error {
	return &messages.Error{Code: messages.CodeUnknownAgent,
		Message: fmt.Sprintf("There is no agent %q; add it with `buddi agent add %s`.", name, name)}
}

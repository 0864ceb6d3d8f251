package mcp

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/limit"
)

// What MCP over HTTP lets an agent make buddi keep. A session holds a
// little memory for as long as it lives, so an agent holds a few at most,
// opens them only so fast, and one left idle ends soon; the install as a
// whole holds a bounded number too.
const (
	// SessionIdle is how long an MCP session over HTTP lives without a
	// request; a client that comes back later is answered 404 and opens a
	// new one, as the transport's rules tell it to.
	SessionIdle = 10 * time.Minute
	// SessionsPerAgent is how many sessions one agent holds at a time.
	SessionsPerAgent = 8
	// SessionsTotal is how many sessions all agents hold together.
	SessionsTotal = 64
	// OpenBurst sessions an agent may open at once; after them, one more
	// every OpenEvery.
	OpenBurst = 8
	OpenEvery = 5 * time.Second
)

// sessions counts the live MCP sessions over HTTP by agent. The SDK owns
// the sessions; this keeps only which agent opened each, and forgets a
// session once the SDK no longer serves it.
type sessions struct {
	srv  *mcp.Server
	rate *limit.Limiter

	mu      sync.Mutex
	agentOf map[string]opened // session id → who opened it, and when
	opening map[string]int    // agent → sessions being opened now
	seq     uint64            // counts recorded sessions
}

type opened struct {
	agent string
	seq   uint64
}

func newSessions(srv *mcp.Server, now func() time.Time) *sessions {
	return &sessions{srv: srv, agentOf: map[string]opened{}, opening: map[string]int{},
		rate: limit.New(limit.Config{Tries: OpenBurst, Every: OpenEvery, Local: []string{rateKey}, MaxKeys: 4096, Now: now})}
}

const rateKey = "mcp:"

// reserve makes room for one new session of agent, or says why there is
// none. The caller must call done with the id the SDK gave the session
// ("" when it gave none).
func (s *sessions) reserve(agent string) (done func(id string), status int, e *messages.Error) {
	s.mu.Lock()
	seen := s.seq
	s.mu.Unlock()
	live := map[string]bool{}
	for ss := range s.srv.Sessions() {
		live[ss.ID()] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, o := range s.agentOf {
		if !live[id] && o.seq <= seen { // recorded after the list was read: it may be live
			delete(s.agentOf, id)
		}
	}
	mine, all := s.opening[agent], 0
	for _, o := range s.agentOf {
		if o.agent == agent {
			mine++
		}
	}
	for _, n := range s.opening {
		all += n
	}
	all += len(s.agentOf)
	switch {
	case mine >= SessionsPerAgent:
		return nil, http.StatusConflict, errAgentFull()
	case all >= SessionsTotal:
		return nil, http.StatusConflict, errInstallFull()
	}
	if ok, wait := s.rate.Take(rateKey + agent); !ok {
		return nil, http.StatusTooManyRequests, errTooFast(wait)
	}
	s.opening[agent]++
	return func(id string) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.opening[agent]--; s.opening[agent] <= 0 {
			delete(s.opening, agent)
		}
		if id != "" {
			s.seq++
			s.agentOf[id] = opened{agent: agent, seq: s.seq}
		}
	}, 0, nil
}

func errAgentFull() *messages.Error {
	return messages.Errorf(messages.CodeMCPSessionsFull,
		"This agent already holds %d MCP sessions, the most buddi keeps for one agent; reuse one, end one (DELETE /mcp with its Mcp-Session-Id), or wait: a session idle for %d minutes ends.",
		SessionsPerAgent, int(SessionIdle/time.Minute))
}

func errInstallFull() *messages.Error {
	return messages.Errorf(messages.CodeMCPSessionsFull,
		"buddi already holds %d MCP sessions, the most it keeps for all agents together; try again once idle ones end (after %d minutes without a request).",
		SessionsTotal, int(SessionIdle/time.Minute))
}

func errTooFast(wait time.Duration) *messages.Error {
	return messages.Errorf(messages.CodeMCPTooFast,
		"This agent opens MCP sessions faster than buddi allows (%d at once, then one every %s); reuse the session it has, or wait %s.",
		OpenBurst, OpenEvery, fmt.Sprint(wait.Round(time.Second)+time.Second))
}

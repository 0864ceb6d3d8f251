package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// A run against a cluster drives several members (Config.Members beside
// Config.Target). The owner's controls go through the first member with
// its owner token: adding agents, starting tasks, releases and the Stop,
// which the cluster routes to the member holding the conversation or
// shares through etcd. Each agent's calls go through one member, chosen
// round-robin by conversation, so most calls reach a member that does not
// hold the conversation and are routed on to the one that does.
//
// What is each member's own is read from every member with its own owner
// token: /healthz (a Stop counts as acknowledged by the cluster once every
// member says it is stopped; restarts are summed), the session list, and
// take-over and resume of one conversation, which only the member holding
// its session answers (the cluster routes task start, decide and release,
// not these): they are tried on each member in turn until one holds it.

// member is one buddi the run drives: its client, its owner token, and
// the acts answered through it.
type member struct {
	url   string
	cl    *client
	calls *client // the agents' calls: cl, or pipelined connections (Config.Pipeline)
	owner string
	acts  atomic.Int64
	ok    atomic.Int64
	lat   hist
	cpu   serverCPU // its own process's, from its /metrics (servercpu.go)
}

// MemberReport is the acts answered through one member of a cluster.
type MemberReport struct {
	Target        string  `json:"target"`
	Owner         bool    `json:"owner,omitempty"` // the owner's controls went through it
	Conversations int     `json:"conversations"`   // whose agents called through it
	Acts          int64   `json:"acts"`
	ActsOK        int64   `json:"actsOk"`
	ActsPerSecond float64 `json:"actsPerSecond"`
	Latency       Summary `json:"latency"`
	// ServerCPU is the CPU time the member's own process used over the
	// run, as its /metrics said; ServerCPUPerAct is it over every act of
	// the run (not only those through it: a member also answers acts
	// routed on from the others), so the members' figures add up to the
	// run's. Both are absent when its /metrics did not say.
	ServerCPU       float64 `json:"serverCpuSeconds,omitempty"`
	ServerCPUPerAct float64 `json:"serverCpuMicrosecondsPerAct,omitempty"`
}

// cluster reports whether the run drives several members.
func (r *run) cluster() bool { return len(r.members) > 1 }

// connectMembers makes a client for each member, the first the owner's.
func (r *run) connectMembers(urls, tokens []string) error {
	for i, u := range urls {
		cl, err := newClient(u, memberConns(r.cfg.Conversations, len(urls)), r.cfg.Timeout)
		if err != nil {
			return err
		}
		calls := cl
		if r.cfg.Pipeline > 0 {
			if calls, err = newPipelined(u, r.cfg.Pipeline, r.cfg.Timeout); err != nil {
				return err
			}
		}
		r.members = append(r.members, &member{url: u, cl: cl, calls: calls, owner: tokens[i]})
	}
	r.cl = r.members[0].cl
	return nil
}

// memberConns is how many connections the harness may keep open to one of
// n members: one per conversation it carries, and some for the owner.
func memberConns(convs, n int) int { return convs/n + 64 }

// warmConns opens, before the run, the connections each member's agents
// will share, as many as they may: the server keeps a connection's
// buffers while it is open, so a pool that grew in a burst after the
// quarter's heap sample would read as heap per conversation grown with
// the run. A burst of as many concurrent /healthz reads as there may be
// connections opens one for each read that finds none free; the burst
// goes round again, at most eight times, while some are missing; the
// report notes it when some never opened. Pipelined acts keep to their own
// few connections.
func (r *run) warmConns() {
	if r.cfg.Pipeline > 0 {
		return
	}
	want, open := memberConns(r.cfg.Conversations, len(r.members)), 0
	for _, m := range r.members {
		for i := 0; i < 8 && m.cl.api.Conns() < want; i++ {
			var ready, wg sync.WaitGroup
			ready.Add(1)
			for range want {
				wg.Go(func() {
					ready.Wait()
					ctx, cancel := context.WithTimeout(context.Background(), r.cfg.Timeout)
					defer cancel()
					_, _ = m.cl.api.Health(ctx)
				})
			}
			ready.Done()
			wg.Wait()
		}
		open += m.cl.api.Conns()
	}
	if open < want*len(r.members) {
		r.note("only %d of the %d connections to the daemon opened before the run; the heap may grow as the others open", open, want*len(r.members))
	}
}

// record counts one act answered through m.
func (m *member) record(d time.Duration, code string) {
	m.acts.Add(1)
	m.lat.record(d)
	if code == "" {
		m.ok.Add(1)
	}
}

func (r *run) memberReports(active time.Duration, convs int) []MemberReport {
	if !r.cluster() {
		return nil
	}
	out := make([]MemberReport, len(r.members))
	for i, m := range r.members {
		out[i] = MemberReport{Target: m.url, Owner: i == 0, Acts: m.acts.Load(), ActsOK: m.ok.Load(),
			Latency: m.lat.summary(), Conversations: convs / len(r.members)}
		if i < convs%len(r.members) {
			out[i].Conversations++
		}
		if active > 0 {
			out[i].ActsPerSecond = float64(out[i].Acts) / active.Seconds()
		}
	}
	return out
}

// ownerCallAt sends one owner request through member m; see ownerCall.
func (r *run) ownerCallAt(m *member, label, method, path string, body any) string {
	return r.timedOwner(m.cl, m.owner, label, method, path, body)
}

// convControl sends a control of one conversation (take over, resume)
// through from, or the first member: a cluster routes it to the member
// holding the session. It returns the answer and the member that gave it.
func (r *run) convControl(from *member, label, path, conv string) (string, *member) {
	if from == nil {
		from = r.members[0]
	}
	return r.ownerCallAt(from, label, "POST", path, messages.OwnerBody{Conversation: conv}), from
}

// healthOf is member m's /healthz as its owner sees it.
func (r *run) healthOf(m *member) (*messages.Health, error) {
	start := time.Now()
	h, err := m.cl.api.Owner(m.owner).Health(context.Background())
	code := ""
	if err != nil {
		code = codeTransport
	}
	r.stats.recordOwner("healthz", time.Since(start), code)
	return h, err
}

// stopEverywhere waits, after the first member acknowledged a Stop, until
// every other member says in /healthz that it is stopped: a member
// refuses agents' work once its watch of etcd delivers the Stop, which
// may be just after the first member answered. It records that wait as
// stop_everywhere and returns whether every member said so in time.
func (r *run) stopEverywhere(ctx context.Context) bool {
	start := time.Now()
	deadline := start.Add(stopSpread)
	all := true
	for _, m := range r.members[1:] {
		for {
			h, err := r.healthOf(m)
			if err == nil && h.Stopped {
				break
			}
			if time.Now().After(deadline) || !sleep(ctx, 2*time.Millisecond) {
				all = false
				r.note("%s did not say it was stopped within %s of the Stop through %s", m.url, stopSpread, r.members[0].url)
				break
			}
		}
	}
	code := ""
	if !all {
		code = codeNotOK
	}
	r.stats.recordOwner("stop_everywhere", time.Since(start), code)
	return all
}

// stopSpread bounds the wait for every member to hear of a Stop.
const stopSpread = 10 * time.Second

// waitAgents waits until every member other than the first knows each of
// the run's agents (they learn them through etcd's watch), so no agent's
// first call is refused as unknown.
func (r *run) waitAgents(ctx context.Context) error {
	conv := fmt.Sprintf("lt%s-probe", r.id)
	body := []byte(`{"conversation":` + string(appendString(nil, conv)) + `,"input":{"action":"observe"}}`)
	deadline := time.Now().Add(stopSpread)
	for _, m := range r.members[1:] {
		for _, token := range r.tokens {
			for {
				var rep actReply
				err := m.cl.do("POST", "/api/tools/browser.act", token, body, &rep)
				if err == nil && (rep.Error == nil || rep.Error.Code != messages.CodeUnauthorized) {
					break
				}
				if time.Now().After(deadline) || !sleep(ctx, 10*time.Millisecond) {
					return fmt.Errorf("loadtest: %s does not know the agents added through %s after %s; are they members of one cluster?", m.url, r.members[0].url, stopSpread)
				}
			}
		}
	}
	return nil
}

// sessionStateAt is how member m's owner API lists conv's session now.
func (r *run) sessionStateAt(m *member, conv string) string {
	rep, err := m.cl.owner(m.owner, "GET", "/api/browser/sessions", nil)
	if err != nil || rep.Error != nil {
		return "unknown (the session list did not come)"
	}
	var list []struct {
		Conversation string `json:"conversation"`
		State        string `json:"state"`
		StepsUsed    int    `json:"stepsUsed"`
	}
	if json.Unmarshal(rep.Result, &list) != nil {
		return "unknown"
	}
	for _, s := range list {
		if s.Conversation == conv {
			return fmt.Sprintf("%s after %d steps", s.State, s.StepsUsed)
		}
	}
	return "not running"
}

// sessionCount sums the sessions the members say they hold.
func (r *run) sessionCount() (int, error) {
	n := 0
	for _, m := range r.members {
		h, err := r.healthOf(m)
		if err != nil {
			return 0, err
		}
		n += h.Sessions
	}
	return n, nil
}

// memberRestarts sums the members' restarts; -1 when one did not say.
func (r *run) memberRestarts() int64 {
	var n int64
	for _, m := range r.members {
		h, err := r.healthOf(m)
		if err != nil {
			return -1
		}
		n += int64(h.Restarts)
	}
	return n
}

// checkMemberDrivers makes sure every conversation's member serves the
// simulated site: a status call is answered by the member holding the
// conversation, so asking for each conversation through its own member
// reaches every member that holds one.
func (r *run) checkMemberDrivers() error {
	var bad atomic.Value
	parallel(len(r.agents), 16, func(i int) bool {
		if d, err := r.driverOf(r.agents[i]); err == nil && d != "sim" {
			bad.Store(d)
		}
		return true
	})
	if d, ok := bad.Load().(string); ok {
		return refuse("a member of the cluster runs the %q driver; the agents browse the simulated site, so start every member with BUDDI_DRIVER=sim", d)
	}
	return nil
}

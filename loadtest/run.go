package loadtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// grace is how long after an act was abandoned its input may still be
// reported: the sim reports input just after dispatching it.
const grace = 500 * time.Millisecond

// run is one load test in progress.
type run struct {
	cfg   Config
	cl    *client // the first member's, which takes the owner's controls
	owner string  // the first member's owner token
	// members are the buddis the run drives: the in-process one, the
	// target, or the members of a cluster (see members.go).
	members []*member
	site    site
	local   *local // nil when driving a running daemon
	pages   *pageServer
	check   *Checker
	stats   *stats
	sampler sampler // the run's timeline, a sample a second
	// runtime is what the Go runtime had counted of this process at the
	// run's start and at its end.
	runtime [2]goRuntime
	id      string // names this run's agents and conversations
	// fullBudgets gives the first tasks the whole budget too (benchmarks);
	// otherwise they get 20 to 80 steps, so renewals do not come in waves.
	fullBudgets bool

	agents []*agent
	hands  *hands   // nil without --hands
	names  []string // agent names
	tokens []string

	// gate is held shared by every agent step and owner control, and
	// exclusively while memory is sampled, so samples see a daemon at rest
	// between acts.
	gate  sync.RWMutex
	holds atomic.Int64 // how often the gate was held
	// unprovoked counts the acts answered with a code the run did not
	// provoke; the first maxUnprovokedNotes are kept in the notes.
	unprovoked atomic.Int64
	// stopMu is held shared by take-overs and exclusively by stop-all, so
	// the owner never stops everything in the middle of a take-over.
	stopMu   sync.RWMutex
	stopping atomic.Bool
	stops    atomic.Int64 // acknowledged stop-alls

	start  time.Time
	paused time.Duration // time the load was held for samples
	// cpu is the process's CPU time over the run, less what memory
	// samples used (a forced GC); cpuPaused is that part.
	cpu, cpuPaused time.Duration
	mem            memory
	errMu          sync.Mutex
	errSeen        []string
	notes          []string
}

// note keeps a remark for the report.
// maxUnprovokedNotes bounds the notes of acts the run did not provoke.
const maxUnprovokedNotes = 10

func (r *run) note(format string, args ...any) {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func newRun(cfg Config, warm bool) (*run, error) {
	r := &run{cfg: cfg, check: NewChecker(nil, grace), stats: newStats(), id: runID()}
	if cfg.Hands == 0 {
		r.check.NotApplicable(HandFrames, "no remote hands in this run (--hands 0)")
	}
	base, err := r.connect(warm)
	if err != nil {
		r.close()
		return nil, err
	}
	urls, tokens := []string{base}, []string{r.owner}
	if cfg.Target != "" {
		urls, tokens = append(urls, cfg.Members...), append(tokens, cfg.MemberTokens...)
	}
	if err := r.connectMembers(urls, tokens); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

// connect starts the in-process daemon, or takes the target, and says
// which invariants this run cannot check.
func (r *run) connect(warm bool) (string, error) {
	cfg := r.cfg
	if cfg.Target != "" {
		r.site, r.owner = simSite(cfg.Pages), cfg.OwnerToken
		why := "a running buddi has no input hook"
		r.check.NotApplicable(NoReplay, why)
		r.check.NotApplicable(NoInputWhileHeld, why)
		r.check.NotApplicable(FlatMemory, "the target's heap is not visible from here")
		return cfg.Target, nil
	}
	var hook func(string, drivers.Kind)
	if cfg.Driver == "playwright" {
		ps, err := startPages()
		if err != nil {
			return "", err
		}
		r.pages, r.site = ps, ps.site(cfg.Pages)
		why := "the real browser has no input hook"
		r.check.NotApplicable(NoReplay, why)
		r.check.NotApplicable(NoInputWhileHeld, why)
	} else {
		r.site = simSite(cfg.Pages)
		hook = func(conv string, k drivers.Kind) {
			r.stats.inputs.Add(1)
			r.check.Input(conv, string(k))
		}
	}
	n := max(cfg.Conversations, cfg.Idle)
	l, err := startLocal(cfg, (n+MaxPlaywright-1)/MaxPlaywright+2, hook, warm, r.pages)
	if err != nil {
		return "", err
	}
	r.local = l
	if r.owner, err = l.ownerToken(); err != nil {
		return "", err
	}
	return l.base(), nil
}

func runID() string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// conversation names conversation i of this run.
func (r *run) conversation(i int) string {
	if r.local != nil {
		return fmt.Sprintf("c%05d", i)
	}
	return fmt.Sprintf("lt%s-c%05d", r.id, i)
}

// addAgents registers one agent per 50 conversations.
func (r *run) addAgents(n int) error {
	for k := range (n + 49) / 50 {
		name := fmt.Sprintf("lt%s-%d", r.id, k)
		rep, err := r.cl.owner(r.owner, "POST", "/api/agents", messages.OwnerBody{Name: name})
		if err != nil {
			return fmt.Errorf("loadtest: adding an agent: %w", err)
		}
		if rep.Error != nil {
			return fmt.Errorf("loadtest: adding an agent: %s (%s)", rep.Error.Message, rep.Error.Code)
		}
		var out struct {
			Token string `json:"token"`
		}
		if err := json.Unmarshal(rep.Result, &out); err != nil || out.Token == "" {
			return fmt.Errorf("loadtest: adding an agent gave no token")
		}
		r.names, r.tokens = append(r.names, name), append(r.tokens, out.Token)
	}
	if r.cluster() {
		return r.waitAgents(context.Background())
	}
	return nil
}

// newAgents builds the agents for n conversations.
func (r *run) newAgents(n int) {
	seed := r.cfg.Seed
	if seed == 0 {
		seed = mrand.Uint64()
	}
	for i := range n {
		conv := r.conversation(i)
		r.agents = append(r.agents, &agent{r: r, conv: conv, base: conv, name: r.names[i/50],
			token: r.tokens[i/50], via: r.members[i%len(r.members)], rng: mrand.New(mrand.NewPCG(seed, uint64(i)))})
	}
}

// startTask asks the owner API for a task of steps for conv, timed under
// label; "" when it started. The first tasks get budgets from 20 to 80, so
// conversations do not all run out of steps (and renew) at once.
func (r *run) startTask(label, agentName, conv string, steps int) string {
	return r.ownerCall(label, "POST", "/api/tasks", messages.OwnerBody{Agent: agentName, Conversation: conv,
		Description: "load test conversation " + conv, Steps: steps, Minutes: 20})
}

// ownerCall sends one owner request, timed under label; it returns the
// error code, "transport" when no answer came, "" on success.
func (r *run) ownerCall(label, method, path string, body any) string {
	return r.timedOwner(r.cl, r.owner, label, method, path, body)
}

// timedOwner is ownerCall through cl with the owner token owner.
func (r *run) timedOwner(cl *client, owner, label, method, path string, body any) string {
	start := time.Now()
	rep, err := cl.owner(owner, method, path, body)
	code := ""
	switch {
	case err != nil:
		code = codeTransport
		r.transportErr(err)
	default:
		code = string(rep.Code())
	}
	r.stats.recordOwner(label, time.Since(start), code)
	return code
}

// parallel runs f for 0..n-1 on a few workers and counts failures.
func parallel(n, workers int, f func(i int) bool) (failed int64) {
	var next, bad atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if !f(i) {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return bad.Load()
}

func (r *run) transportErr(err error) {
	r.errMu.Lock()
	defer r.errMu.Unlock()
	if len(r.errSeen) < 5 {
		r.errSeen = append(r.errSeen, err.Error())
	}
}

// close releases what the run holds: the in-process daemon, or this run's
// sessions and agents on the target.
func (r *run) close() error {
	var err error
	if r.local != nil {
		err = r.local.close()
	} else if r.cl != nil {
		r.cleanRemote()
	}
	if r.pages != nil {
		r.pages.close()
	}
	if r.hands != nil {
		r.hands.close()
	}
	for _, m := range r.members {
		m.cl.close()
	}
	return err
}

func (r *run) cleanRemote() {
	parallel(len(r.agents), 16, func(i int) bool {
		r.ownerCall("release", "POST", "/api/browser/release", messages.OwnerBody{Conversation: r.agents[i].conv})
		return true
	})
	for _, n := range r.names {
		_, _ = r.cl.owner(r.owner, "DELETE", "/api/agents/"+n, nil)
	}
}

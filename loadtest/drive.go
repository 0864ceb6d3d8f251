package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Run runs one load test and reports it. An error means the run could not
// start; broken invariants are in the report (Report.Passed).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if cfg.Idle > 0 {
		return runIdle(ctx, cfg)
	}
	r, err := newRun(cfg, true)
	if err != nil {
		return nil, err
	}
	if err := r.setup(); err != nil {
		_ = r.close()
		return nil, err
	}
	r.drive(ctx)
	if r.local != nil && r.mem.end == 0 {
		r.check.NotApplicable(FlatMemory, "the run was cut short before its last memory sample")
	}
	rep := r.report()
	if err := r.close(); err != nil {
		rep.Notes = append(rep.Notes, "shutdown: "+err.Error())
	}
	if r.local != nil {
		rep.Audit = r.local.trail
	}
	return rep, nil
}

// setup adds the agents and starts every conversation's task.
func (r *run) setup() error {
	n := r.cfg.Conversations
	if r.local != nil && r.cfg.Driver == "sim" {
		r.mem.templates = templateBytes(r.cfg.Pages)
	}
	if r.local != nil {
		r.mem.base = quietHeap()
	}
	if err := r.addAgents(n); err != nil {
		return err
	}
	r.newAgents(n)
	var mu sync.Mutex
	var first string
	parallel(n, 32, func(i int) bool {
		a := r.agents[i]
		steps := maxSteps
		if !r.fullBudgets {
			steps = 20 + a.rng.IntN(61)
		}
		code := r.startFirstTask(a, steps)
		if code != "" {
			mu.Lock()
			if first == "" {
				first = fmt.Sprintf("the task of %s did not start: %s", a.conv, code)
			}
			mu.Unlock()
		}
		return code == ""
	})
	if first != "" {
		return refuse("%s", first)
	}
	if r.cfg.Target != "" {
		if err := r.checkTargetDriver(); err != nil {
			return err
		}
	}
	if r.cfg.Hands > 0 {
		h, err := r.setupHands()
		r.hands = h
		if err != nil {
			return err
		}
	}
	r.warmConns()
	if r.local != nil {
		r.mem.setup = settledHeap()
	}
	return nil
}

// startFirstTask starts a's first task. In a cluster, the member that
// holds a's conversation may not have learned the agent from etcd yet: the
// refusal says to try again in a moment, which it does, for stopSpread.
func (r *run) startFirstTask(a *agent, steps int) string {
	code := r.startTask("task_start", a.name, a.conv, steps)
	for until := time.Now().Add(stopSpread); code == string(messages.CodeUnknownAgent) && r.cluster() && time.Now().Before(until); {
		time.Sleep(20 * time.Millisecond)
		code = r.startTask("task_start", a.name, a.conv, steps)
	}
	return code
}

// checkTargetDriver makes sure a running buddi serves the simulated site.
func (r *run) checkTargetDriver() error {
	if r.cluster() {
		return r.checkMemberDrivers()
	}
	d, err := r.driverOf(r.agents[0])
	if err != nil {
		return err
	}
	if d != "sim" {
		return refuse("the target runs the %q driver; the agents browse the simulated site, so start it with BUDDI_DRIVER=sim", d)
	}
	return nil
}

// driverOf is the driver of the browser serving a's conversation.
func (r *run) driverOf(a *agent) (string, error) {
	var rep struct {
		Result struct {
			Browser struct {
				Driver string `json:"driver"`
			} `json:"browser"`
		} `json:"result"`
	}
	body := []byte(`{"conversation":` + string(appendString(nil, a.conv)) + `,"input":{}}`)
	if err := a.via.calls.do("POST", "/api/tools/browser.status", a.token, body, &rep); err != nil {
		return "", err
	}
	return rep.Result.Browser.Driver, nil
}

// drive runs the agents, the owner and the samplers for the duration.
func (r *run) drive(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	r.startServerCPU()
	r.start = time.Now()
	cpu := cpuTime()
	r.runtime[0] = readGoRuntime()
	var agents, owner sync.WaitGroup
	for _, a := range r.agents {
		agents.Add(1)
		go func() { defer agents.Done(); a.loop(ctx) }()
	}
	if r.cfg.OwnerRate > 0 {
		owner.Add(1)
		go func() { defer owner.Done(); r.ownerLoop(ctx, &owner) }()
	}
	if h := r.hands; h != nil {
		for i := range r.cfg.Hands {
			owner.Add(1)
			go func() { defer owner.Done(); h.loop(ctx, i) }()
		}
	}
	done := make(chan struct{})
	go r.progress(done)
	stop := r.startSampler()
	r.timeline(ctx, cancel)
	cancel()
	agents.Wait()
	owner.Wait()
	r.cpu = cpuTime() - cpu - r.cpuPaused
	r.runtime[1] = readGoRuntime()
	// The sampler reads the members' CPU each second; it has taken its
	// last sample before the run's end is read.
	stop()
	r.endServerCPU()
	close(done)
}

// timeline waits out the run, sampling memory at a quarter and at the end
// while every conversation is still live, and ends the run with end.
func (r *run) timeline(ctx context.Context, end func()) {
	d := r.cfg.Duration
	if !sleep(ctx, d/4) {
		return
	}
	// The quarter's sample weighs the conversations once (nearly) each
	// holds a page: on a loaded machine the first observations may take longer
	// than a quarter of the run, and a heap sampled before them says
	// nothing per conversation.
	established := r.waitEstablished(ctx, r.start.Add(d*3/4))
	if r.local != nil && established {
		r.mem.quarter = r.sample("quarter", nil)
	}
	r.stats.warm.Store(true)
	if !sleep(ctx, time.Until(r.start.Add(d+r.paused))) {
		return
	}
	if r.local != nil {
		r.mem.end = r.sample("end", end)
		r.mem.rss, r.mem.goroutines = rss(), runtime.NumGoroutine()
		if established {
			r.check.Memory(r.mem.base, r.mem.quarter, r.mem.end, r.cfg.Conversations)
		} else {
			r.check.NotApplicable(FlatMemory, fmt.Sprintf("only %d of %d conversations had read a page by three quarters of the run; run longer to weigh the heap per conversation",
				r.stats.established.Load(), r.cfg.Conversations))
		}
	}
}

// waitEstablished waits until nine in ten conversations have read their
// first observation (one the owner holds from the start may never), or
// until by; it reports whether they had.
func (r *run) waitEstablished(ctx context.Context, by time.Time) bool {
	for int(r.stats.established.Load())*10 < r.cfg.Conversations*9 {
		if time.Now().After(by) || !sleep(ctx, 20*time.Millisecond) {
			return false
		}
	}
	return true
}

// ownerCycle is the owner's round of controls: seven take-overs, two
// releases and one stop in ten, the stop early so short runs see one.
var ownerCycle = [...]string{"takeover", "release", "stop", "takeover", "takeover",
	"takeover", "release", "takeover", "takeover", "takeover"}

// ownerLoop takes over, releases and stops at the owner rate, each control
// on its own goroutine so a long hold never slows the rate.
func (r *run) ownerLoop(ctx context.Context, wg *sync.WaitGroup) {
	t := time.NewTicker(time.Duration(float64(time.Second) / r.cfg.OwnerRate))
	defer t.Stop()
	rng := rand.New(rand.NewPCG(r.cfg.Seed, 1<<40))
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		a := r.agents[rng.IntN(len(r.agents))]
		hold := time.Duration(20+rng.IntN(180)) * time.Millisecond
		wg.Add(1)
		go func(control string) {
			defer wg.Done()
			// A memory sample waits for the owner's control in flight,
			// as for an agent's act: a Stop closes every session's tabs
			// and takes each one's last picture, megabytes the sample
			// would count as heap per conversation.
			r.gate.RLock()
			defer r.gate.RUnlock()
			switch control {
			case "takeover":
				r.takeOver(ctx, a, hold)
			case "release":
				r.release(a)
			case "stop":
				r.stopAll(ctx, hold)
			}
		}(ownerCycle[i%len(ownerCycle)])
	}
}

func (r *run) takeOver(ctx context.Context, a *agent, hold time.Duration) {
	r.stopMu.RLock()
	defer r.stopMu.RUnlock()
	a.mu.Lock()
	defer a.mu.Unlock()
	code, at := r.convControl(nil, "takeover", "/api/browser/takeover", a.conv)
	if code != "" {
		return // no session right now (between tasks): nothing taken
	}
	r.check.TookOver(a.conv)
	a.held.Add(1)
	sleep(ctx, hold)
	r.check.Resuming(a.conv)
	if code, _ := r.convControl(at, "resume", "/api/browser/resume", a.conv); code == codeTransport || code == string(messages.CodeTimeout) {
		r.note("the resume of %s after a take-over got no answer (%s); the owner API lists it as %s", a.conv, code, r.sessionState(a.conv))
	}
}

// sessionState is how the owner API lists conv's session now (in a
// cluster, the first member lists every member's sessions).
func (r *run) sessionState(conv string) string {
	return r.sessionStateAt(r.members[0], conv)
}

func (r *run) release(a *agent) {
	a.mu.Lock()
	defer a.mu.Unlock()
	r.ownerCall("release", "POST", "/api/browser/release", messages.OwnerBody{Conversation: a.conv})
}

// stopAll stops all browser access, checks /healthz says so, holds, and
// resumes. Only one Stop is held at a time.
func (r *run) stopAll(ctx context.Context, hold time.Duration) {
	if !r.stopping.CompareAndSwap(false, true) {
		return
	}
	defer r.stopping.Store(false)
	r.stopMu.Lock()
	defer r.stopMu.Unlock()
	if r.ownerCall("stop", "POST", "/api/browser/stop", nil) == "" {
		if r.cluster() {
			// The Stop holds on a member once its watch of etcd delivers
			// it: the window opens when every member says so.
			r.stopEverywhere(ctx)
		}
		r.check.Stopped()
		r.stops.Add(1)
		for _, m := range r.members {
			if h, err := r.healthOf(m); err == nil {
				r.check.Health(h.Stopped)
			}
		}
		sleep(ctx, hold)
	}
	r.check.ResumingAll()
	r.ownerCall("resume_all", "POST", "/api/browser/resume", messages.OwnerBody{All: true})
}

package controller

import (
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/messages"
)

// start loads the ledger and respawns the sessions of tasks still running.
func (a *Actor) start(ctx actor.Context) {
	st := a.cfg.Store
	a.agents, a.byHash = map[string]*ledger.Agent{}, map[string]string{}
	a.tasks, a.sessions = map[string]*ledger.Task{}, map[string]*entry{}
	if a.carries == nil {
		a.carries = map[string]*session.Carry{}
	}
	a.profiles = nil
	a.ledger = a.cfg.Ledger
	must(ctx, func() (err error) { a.stop, err = st.Stop(); return })
	must(ctx, a.loadSites)
	agents, err := st.Agents()
	must(ctx, func() error { return err })
	for i := range agents {
		a.putAgent(&agents[i])
	}
	tasks, err := st.Tasks()
	must(ctx, func() error { return err })
	for i := range tasks {
		t := &tasks[i]
		a.tasks[t.Conversation] = t
		if t.State == ledger.TaskActive && a.cfg.Now().Before(t.Expires) {
			if e := a.spawn(ctx, t); e != nil {
				a.cfg.Log.Warn("could not resume a session", "conversation", t.Conversation, "err", e.Message)
			}
		}
	}
}

func must(ctx actor.Context, f func() error) {
	if err := f(); err != nil {
		panic(fmt.Errorf("controller: reading the ledger: %w", err))
	}
}

// spawn places a session on a profile with room and starts its actor.
func (a *Actor) spawn(ctx actor.Context, t *ledger.Task) *messages.Error {
	idx, e := a.place()
	if e != nil {
		return e
	}
	carry := a.carries[t.Conversation]
	if carry == nil {
		carry = &session.Carry{}
		a.carries[t.Conversation] = carry
	}
	props := actor.PropsFromProducer(session.New(session.Config{
		Conversation: t.Conversation, Agent: t.Agent, Profile: idx,
		Store: a.cfg.Store, Ledger: a.ledger, Controller: ctx.Self(),
		Driver: a.profiles[idx].drv, Policy: a.cfg.Policy, Carry: carry,
		Log: a.cfg.Log, Chaos: a.cfg.Chaos, Now: a.cfg.Now,
	}))
	// Each spawn gets its own name: the previous session of the conversation
	// may still be stopping, and its Terminated must not match this one.
	a.spawned++
	pid, err := ctx.SpawnNamed(props, fmt.Sprintf("s-%s-%d", t.Conversation, a.spawned))
	if err != nil {
		a.profiles[idx].n--
		return &messages.Error{Code: "internal", Message: "The session could not start: " + err.Error()}
	}
	a.sessions[t.Conversation] = &entry{pid: pid, profile: idx,
		info: messages.SessionInfo{Conversation: t.Conversation, Agent: t.Agent, State: "ready",
			Task: t.Description, StepsMax: t.MaxSteps, Expires: t.Expires, Profile: idx}}
	return nil
}

// place finds a profile with room, opening a new one when allowed.
func (a *Actor) place() (int, *messages.Error) {
	for i, p := range a.profiles {
		if p.n < PerProfile {
			p.n++
			return i, nil
		}
	}
	if len(a.profiles) >= a.cfg.MaxProfiles {
		return 0, &messages.Error{Code: "too_many_sessions", Message: fmt.Sprintf(
			"All %d browser sessions are in use; release one (`buddi release CONV`) and try again.", a.cfg.MaxProfiles*PerProfile)}
	}
	drv, err := a.cfg.Profile(len(a.profiles))
	if err != nil {
		return 0, &messages.Error{Code: "no_browser", Message: err.Error()}
	}
	a.profiles = append(a.profiles, &profile{drv: drv, n: 1})
	return len(a.profiles) - 1, nil
}

// terminated cleans up after a session that stopped on its own: its
// supervisor gave up on it after repeated crashes.
func (a *Actor) terminated(ctx actor.Context, who *actor.PID) {
	for conv, e := range a.sessions {
		if e.pid.Equal(who) {
			a.drop(conv, e)
			if t := a.tasks[conv]; !a.stopping && t != nil && t.State == ledger.TaskActive {
				t.State, t.EndReason = ledger.TaskEnded, "The task ended because its session kept failing; the owner can start a new one."
				ctx.Send(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{ledger.Put(ledger.TaskKey(conv), t)}})
			}
			return
		}
	}
}

// drop forgets a session and frees its place on its profile.
func (a *Actor) drop(conv string, e *entry) {
	a.profiles[e.profile].n--
	delete(a.sessions, conv)
}

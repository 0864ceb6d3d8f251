package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// call handles one agent tool call while ready.
func (a *Actor) call(ctx actor.Context, m *messages.ToolCall) {
	if m.Tool == messages.ToolStatus {
		ctx.Respond(a.statusResult())
		return
	}
	in := m.Act
	if in == nil {
		ctx.Respond(messages.Fail("bad_input", "browser.act needs an input object such as {\"action\":\"observe\"}."))
		return
	}
	if e := a.limits(ctx); e != nil {
		ctx.Respond(e)
		return
	}
	if in.Action == "close" {
		a.release(ctx, "the agent closed the session")
		return
	}
	if left := a.stepsLeft(); cost(in) > left {
		ctx.Respond(messages.Fail("budget_short", fmt.Sprintf(
			"This script has %d steps but only %d are left in the budget; send a shorter one.", cost(in), left)))
		return
	}
	act, e := a.prepare(in, m.SitesApproved)
	if e != nil {
		switch e.Code {
		case "stale_ref":
			if drivers.Kind(in.Action).Mutating() {
				a.targetMiss(ctx)
			}
		case "air_gap":
			a.recordRefusal(ctx, in, e) // navigate and input alike
		}
		ctx.Respond(&messages.ToolResult{Error: e})
		return
	}
	a.rec.StepsUsed += cost(in)
	a.dispatch(ctx, in, act)
	a.persist(ctx, true)
}

// limits ends the task when its time or budget is gone.
func (a *Actor) limits(ctx actor.Context) *messages.ToolResult {
	if !a.cfg.Now().Before(a.task.Expires) {
		a.end(ctx, "expired", "its time ran out", nil, nil)
		return messages.Fail("expired", fmt.Sprintf("The task's time ran out after %d of %d steps; ask the owner for a new task.", a.rec.StepsUsed, a.task.MaxSteps))
	}
	if a.rec.StepsUsed >= a.task.MaxSteps {
		a.end(ctx, "budget_spent", "its step budget was spent", nil, nil)
		return messages.Fail("budget_spent", fmt.Sprintf("All %d steps of this task are spent; ask the owner for a new task.", a.task.MaxSteps))
	}
	return nil
}

// prepare checks evidence and policy and builds the driver action.
func (a *Actor) prepare(in *messages.ActInput, approved bool) (*drivers.Action, *messages.Error) {
	var target *drivers.Target
	if drivers.Kind(in.Action).Mutating() {
		t, e := a.ev.check(in)
		if e != nil {
			return nil, e
		}
		target = t
		if a.cfg.Policy != nil {
			if err := a.cfg.Policy.CheckInput(a.url); err != nil {
				return nil, refusal(err)
			}
		}
	}
	if e := a.ev.checkRead(in); e != nil {
		return nil, e
	}
	if in.Action == "navigate" && a.cfg.Policy != nil {
		if err := a.cfg.Policy.CheckURL(in.URL, source(in.URLSource, approved)); err != nil {
			return nil, refusal(err)
		}
	}
	if in.Action == "script" {
		for i, s := range in.Steps {
			if s.Action == "click" && s.Observation != a.ev.id {
				return nil, &messages.Error{Code: "stale_observation", Message: fmt.Sprintf(
					"Script step %d names observation %q, not the latest one; observe again.", i+1, clip(s.Observation))}
			}
			if s.Action == "click" && a.cfg.Policy != nil {
				if err := a.cfg.Policy.CheckInput(a.url); err != nil {
					return nil, refusal(err)
				}
			}
			if s.Action == "navigate" && a.cfg.Policy != nil {
				if err := a.cfg.Policy.CheckURL(s.URL, source(s.URLSource, approved)); err != nil {
					return nil, refusal(err)
				}
			}
		}
	}
	return toAction(in, target), nil
}

// dispatch runs the action off the mailbox; its result comes back as *done.
func (a *Actor) dispatch(ctx actor.Context, in *messages.ActInput, act *drivers.Action) {
	a.seq++
	c, cancel := context.WithTimeout(context.Background(), deadline(in))
	a.inflight = &inflight{seq: a.seq, replyTo: ctx.Sender(), in: in, cancel: cancel}
	a.cfg.Carry.set(ctx.Sender())
	self, sys := ctx.Self(), ctx.ActorSystem()
	// The refs map is replaced, never changed, so the goroutine may read it.
	d := &done{seq: a.seq, epoch: a.rec.Epoch, tabs: a.tabs, refs: a.ev.refs, fresh: a.ev.fresh}
	drv, conv := a.cfg.Driver, a.cfg.Conversation
	go func() {
		defer cancel()
		d.run(c, drv, conv, in, act)
		sys.Root.Send(self, d)
	}()
	a.behavior.Become(a.working)
}

// done carries a finished driver call back into the mailbox.
type done struct {
	seq, epoch int
	tabs       drivers.Tabs
	obs        *drivers.Observation
	out        *drivers.Outcome
	script     []map[string]any
	err        error
	refs       map[string]drivers.Target // evidence a script's clicks and a read's within/after may use
	fresh      bool
	thumb      []byte // a thumbnail of the screenshot taken, if any
}

func (d *done) run(c context.Context, drv drivers.Driver, conv string, in *messages.ActInput, act *drivers.Action) {
	if d.tabs == nil {
		t, err := drv.Open(c, conv)
		if err != nil {
			d.err = err
			return
		}
		d.tabs = t
	}
	switch in.Action {
	case "observe", "find":
		var opts drivers.ObserveOptions
		if opts, d.err = readOptions(in, d.refs); d.err == nil {
			d.obs, d.err = d.tabs.Observe(c, opts)
		}
	case "script":
		d.script, d.err = runScript(c, d.tabs, in, d.refs, d.fresh)
	default:
		d.out, d.err = d.tabs.Do(c, act)
	}
	switch {
	case d.obs != nil && len(d.obs.Screenshot) > 0:
		d.thumb = thumbnail(d.obs.Screenshot)
	case d.out != nil && len(d.out.Image) > 0:
		d.thumb = thumbnail(d.out.Image)
	}
}

// finish applies a driver result, unless it was abandoned.
func (a *Actor) finish(ctx actor.Context, d *done) {
	if a.tabs == nil && d.tabs != nil {
		switch {
		case a.ended || a.closeLate:
			// Stop or release came while the first call was opening the
			// tabs: they close now rather than outlive it.
			a.closeLate = false
			go closeTabs(d.tabs, a.cfg.Log)
		case d.epoch == a.rec.Epoch:
			a.tabs = d.tabs
		}
	}
	if a.inflight == nil || d.seq != a.inflight.seq || d.epoch != a.rec.Epoch {
		return // abandoned: its caller was already answered
	}
	if a.cfg.Chaos != nil && a.cfg.Chaos() {
		panic("injected fault: session crashed as an action completed")
	}
	in, replyTo := a.inflight.in, a.inflight.replyTo
	a.inflight = nil
	a.cfg.Carry.take()
	a.behavior.Become(a.ready)
	res := a.apply(ctx, in, d)
	ctx.Send(replyTo, res)
	a.publish(ctx)
}

func deadline(in *messages.ActInput) time.Duration {
	switch in.Action {
	case "script":
		return 90 * time.Second
	case "navigate", "wait_for":
		return 30 * time.Second
	}
	return 20 * time.Second
}

// refusal turns a policy error into an agent error, keeping its code.
func refusal(err error) *messages.Error {
	var r *egress.Refusal
	if errors.As(err, &r) {
		return &messages.Error{Code: string(r.Code), Message: r.Reason}
	}
	var de *drivers.Error
	if errors.As(err, &de) {
		return &messages.Error{Code: string(de.Code), Message: de.Message}
	}
	return &messages.Error{Code: "not_allowed", Message: err.Error()}
}

func restartedResult() *messages.ToolResult {
	return messages.Fail("restarted", "The session restarted while this action ran; it was not repeated and may or may not have reached the page. Observe again before acting.")
}

// source is where a URL came from as the URL rules should see it: a page link
// the owner's site answers already cover counts as the agent's own choice.
func source(s string, approved bool) string {
	if s == "" || s == "page_link" && approved {
		return "agent" // the default: the agent chose the URL itself
	}
	return s
}

// cost is how many steps an action spends: one, or one per script step.
func cost(in *messages.ActInput) int {
	if in.Action == "script" {
		return len(in.Steps)
	}
	return 1
}

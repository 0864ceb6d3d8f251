package session

import (
	"context"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/internal/bounded"
	"github.com/buddi-dev/buddi/messages"
)

// dispatch runs the action off the mailbox (act is nil for a reading,
// which runs from in); its result comes back as *done and is answered to
// replyTo. recovering, when set, is a refusal the action (an observation)
// fetches fresh evidence for. A browser still starting is waited for
// first (at most the action's StartWait); the action's own deadline begins
// once it is ready.
func (a *Actor) dispatch(ctx actor.Context, in *messages.ActInput, act *drivers.Action, replyTo *actor.PID, recovering *messages.Error) {
	a.seq++
	drv, conv, spec := a.cfg.Driver, a.cfg.Tabs, messages.Spec(in.Action)
	// An act with no browser to wait for and no observation after it runs
	// in one context: the session's cancel and its own deadline.
	_, waits := drivers.ReadierOf(drv, a.tabs)
	alone := !waits && !in.ThenObserve
	base, cancel := actContext(alone, spec.Deadline)
	a.become(&working{seq: a.seq, in: in, replyTo: replyTo, cancel: cancel, words: inWords(in, act), recovering: recovering})
	a.cfg.Carry.set(replyTo)
	self, sys := ctx.Self(), ctx.ActorSystem()
	// The refs map is replaced, never changed, so the goroutine may read it.
	d := &done{seq: a.seq, epoch: a.rec.Epoch, tabs: a.tabs, refs: a.ev.refs, fresh: a.ev.fresh, watch: a.watched(), started: a.cfg.Now()}
	a.off(func() {
		defer cancel()
		if alone {
			d.run(base, drv, conv, in, act)
		} else if d.waited, d.err = startWait(base, drv, d.tabs, spec.StartWait()); d.err == nil {
			c, stop := context.WithTimeout(base, spec.Deadline)
			d.run(c, drv, conv, in, act)
			stop()
			if d.err == nil && in.ThenObserve {
				d.observeAfter(base)
			}
		}
		sys.Root.Send(self, d)
	})
}

// actContext is an act's context, which the session cancels: with the
// act's deadline when it runs alone, else without (each part it runs has
// its own). The deadline's timer is armed only once the driver waits on
// it (a browser's call does; an answer at once needs none).
func actContext(alone bool, deadline time.Duration) (context.Context, context.CancelFunc) {
	if alone {
		c := bounded.New(deadline)
		return c, c.Cancel
	}
	return context.WithCancel(context.Background())
}

// startWait waits, at most wait, for a browser that starts in the
// background to be ready (the conversation's tabs, when it holds them,
// else the driver), and says how long it waited.
func startWait(ctx context.Context, drv drivers.Driver, tabs drivers.Tabs, wait time.Duration) (time.Duration, error) {
	s, ok := drivers.ReadierOf(drv, tabs)
	if !ok {
		return 0, nil
	}
	c, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	return s.Ready(c)
}

// done carries a finished driver call back into the mailbox. Its flags
// are kept together, at the end, so that it takes no room for padding:
// one is made for every act.
type done struct {
	seq, epoch int
	tabs       drivers.Tabs
	obs        *drivers.Observation
	out        *drivers.Outcome
	then       *drivers.Observation // of the page after out, when the act asked thenObserve
	script     []messages.ScriptStep
	err        error    // of the action, or of a script's failing step
	refs       elements // evidence a script's clicks and a read's within/after may use
	thumb      []byte   // a thumbnail of the screenshot the agent asked for, if any
	picture    []byte   // the page after the step, for that surface
	pictureApp string   // in Use my apps, the app whose window picture shows
	started    time.Time
	waited     time.Duration // how long the act waited for the browser to start
	opened     bool          // the call opened tabs the session did not hold
	fresh      bool
	watch      bool // a surface shows every step: leave a picture of the page
}

// shot is the screenshot the step took, if it took one.
func (d *done) shot() []byte {
	switch {
	case d.obs != nil && len(d.obs.Screenshot) > 0:
		return d.obs.Screenshot
	case d.out != nil && len(d.out.Image) > 0:
		return d.out.Image
	}
	return nil
}

func (d *done) run(c context.Context, drv drivers.Driver, conv string, in *messages.ActInput, act *drivers.Action) {
	if d.tabs == nil {
		t, err := drv.Open(c, conv)
		if err != nil {
			d.err = err
			return
		}
		d.tabs, d.opened = t, true
	}
	switch messages.Spec(in.Action).Run {
	case messages.RunObserve:
		var opts drivers.ObserveOptions
		if opts, d.err = readOptions(in, d.refs); d.err == nil {
			opts.Screenshot = opts.Screenshot || d.watch
			d.obs, d.err = d.tabs.Observe(c, opts)
		}
	case messages.RunScript:
		d.script, d.err = runScript(c, d.tabs, in, d.refs, d.fresh)
	default:
		d.out, d.err = d.tabs.Do(c, act)
	}
	switch {
	case d.obs != nil && len(d.obs.Screenshot) > 0:
		d.picture, d.pictureApp = d.obs.Screenshot, d.obs.App
		if in.Screenshot {
			d.thumb = thumbnail(d.obs.Screenshot)
		}
	case d.out != nil && len(d.out.Image) > 0:
		d.picture, d.pictureApp = d.out.Image, d.out.App
		d.thumb = thumbnail(d.out.Image)
	}
	if d.watch && d.picture == nil {
		d.picture, d.pictureApp = capture(d.tabs)
	}
}

// observeAfter observes the page after an action sent with thenObserve,
// within what is left of the tool's deadline (less a margin for the
// answer) and at most an observe's own deadline. When that is too little
// or the observation fails, then stays nil and the action's own answer
// goes back, saying to observe. (A watched session's picture of the page
// after the action was taken by run.)
func (d *done) observeAfter(base context.Context) {
	const margin = 5 * time.Second
	left := min(messages.Spec("observe").Deadline, messages.ToolDeadline-margin-time.Since(d.started))
	if left < time.Second {
		return
	}
	c, cancel := context.WithTimeout(base, left)
	defer cancel()
	if obs, err := d.tabs.Observe(c, drivers.ObserveOptions{}); err == nil {
		d.then = obs
	}
}

// pictureWait bounds the picture a watched step leaves of the page.
const pictureWait = 5 * time.Second

// capture is a picture of the page after a step that took none, for a
// surface that shows every step, and in Use my apps the app whose window
// it shows; nil when there is no page to take.
func capture(tabs drivers.Tabs) ([]byte, string) {
	c, cancel := context.WithTimeout(context.Background(), pictureWait)
	defer cancel()
	out, err := tabs.Do(c, &drivers.Action{Kind: drivers.Screenshot, Owner: true})
	if err != nil || out == nil {
		return nil, ""
	}
	return out.Image, out.App
}

// inWords is the act in words, with its target as the evidence named it.
func inWords(in *messages.ActInput, act *drivers.Action) string {
	target := ""
	if act != nil && act.Target != nil { // a reading has no action
		t := act.Target
		target = messages.TargetWords(t.Ref, t.Role, t.Name)
	}
	return messages.InWords(in, target)
}

// finish applies a driver result, unless it was abandoned.
func (a *Actor) finish(ctx actor.Context, d *done) {
	a.adopt(d)
	w, ok := a.st.(*working)
	if !ok || d.seq != w.seq || d.epoch != a.rec.Epoch {
		return // abandoned: its caller was already answered
	}
	if a.cfg.Chaos != nil && a.cfg.Chaos() {
		panic("injected fault: session crashed as an action completed")
	}
	a.cfg.Carry.take()
	a.become(&ready{})
	a.maskCodes(w.in, d)
	if w.recovering != nil {
		a.recovered(ctx, w, d)
		return
	}
	res := a.apply(ctx, w.in, d)
	a.stepTaken(w, d, res)
	if res.Error != nil && a.recover(ctx, res.Error, w.replyTo) {
		a.show()
		return
	}
	ctx.Send(w.replyTo, res)
	a.show()
	a.snapshotAfter(ctx, d)
}

// adopt keeps tabs a call opened, or closes them when nobody will: a Stop,
// a release or a restart came while the call was opening them. While
// another call of this session runs, the tabs are left to it (the driver
// hands the same tabs to every Open of the conversation).
func (a *Actor) adopt(d *done) {
	if !d.opened || a.tabs != nil {
		return
	}
	_, ending := a.st.(*closing)
	switch _, busy := a.st.(*working); {
	case d.epoch == a.rec.Epoch && !ending:
		a.tabs = d.tabs
	case !busy:
		go closeTabs(d.tabs, a.cfg.Log)
	}
}

// toAction builds the driver action from validated input.
func toAction(in *messages.ActInput, t *drivers.Target) *drivers.Action {
	act := &drivers.Action{Kind: drivers.Kind(in.Action), Target: t, URL: in.URL,
		Value: in.Value, Values: in.Values, DeltaY: in.DeltaY, TabOp: in.Tab,
		TabID: in.TabID, FullRes: in.FullRes, MaxChars: in.MaxChars, Selector: in.Selector, AppID: in.AppID, App: in.App}
	if in.Action == "press" {
		act.Value = in.Key
	}
	if in.Target.Point() {
		act.Point = &drivers.Point{X: *in.Target.X, Y: *in.Target.Y}
	}
	if in.Wait != nil {
		act.Wait = &drivers.WaitCond{Selector: in.Wait.Selector, Text: in.Wait.Text,
			URL: in.Wait.URL, Load: in.Wait.Load}
	}
	if in.TimeoutMs > 0 {
		act.Timeout = msDuration(in.TimeoutMs)
	} else if in.Action == "wait_for" {
		act.Timeout = msDuration(messages.DefaultWaitMs)
	}
	return act
}

func msDuration(ms int) time.Duration { return time.Duration(ms) * time.Millisecond }

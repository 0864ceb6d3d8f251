package loadtest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// agent drives one conversation: observe, act on what it saw, think, again.
// It is the only sender of acts for its conversation, so at most one act of
// a conversation is in flight. mu is held by whatever changes the
// conversation's task or hold from the owner's side (take-over, release,
// renewal, resuming a pause), so those never interleave.
type agent struct {
	r     *run
	conv  string // the conversation; base, or base.gen once base got stuck
	base  string
	gen   int
	name  string // the agent's name, for new tasks
	token string
	via   *member // the member its calls go through
	rng   *rand.Rand
	buf   []byte   // the act's body
	text  []byte   // the answer's text, decoded here when it is read without encoding/json
	rep   actReply // the last answer: one agent sends one act at a time
	pg    *page    // the latest observation while it still describes the page
	room  page     // what pg points to once one was read: its lists are reused
	last  string   // the latest observation's id
	prev  string   // the one before, for stale probes
	url   string
	next  time.Time   // when to act next, with --rate
	timer *time.Timer // waits between acts (one per agent, reset each time)
	// evidence: the latest refusal brought a new observation, read already.
	evidence bool
	// observed: the agent has read its first observation (it counts once
	// towards the run's established conversations).
	observed bool
	mu       sync.Mutex
	// held counts acknowledged take-overs of this conversation; seen is
	// what held and the run's stop count were when the latest observation
	// was asked for (asked, at each send): a hold acknowledged after that
	// may have voided it, even when the observation's answer came after
	// the hold's (another member, another connection), and a hold begun
	// and ended between two acts voids the evidence unseen.
	held  atomic.Int64
	seen  [2]int64
	asked [2]int64
}

func (a *agent) loop(ctx context.Context) {
	samples := a.r.holds.Load()
	for a.wait(ctx) {
		a.r.gate.RLock()
		if h := a.r.holds.Load(); h != samples {
			// The load was held for a memory sample: wait a random part of
			// a turn so the agents do not all start again at once.
			a.r.gate.RUnlock()
			samples = h
			a.next = time.Time{}
			sleep(ctx, a.phase())
			continue
		}
		if ctx.Err() == nil {
			a.step(ctx)
		}
		a.r.gate.RUnlock()
	}
}

// phase is a random part of one agent's turn: its think time, or the
// interval between its acts with --rate.
func (a *agent) phase() time.Duration {
	cfg := &a.r.cfg
	turn := cfg.ThinkMax
	if cfg.Rate > 0 {
		turn = time.Duration(float64(cfg.Conversations) / cfg.Rate * float64(time.Second))
	}
	return time.Duration(a.rng.Int64N(int64(turn) + 1))
}

// wait sleeps the think time, or until the agent's next turn with --rate.
func (a *agent) wait(ctx context.Context) bool {
	cfg := &a.r.cfg
	var d time.Duration
	if cfg.Rate > 0 {
		every := time.Duration(float64(cfg.Conversations) / cfg.Rate * float64(time.Second))
		now := time.Now()
		if a.next.IsZero() {
			a.next = now.Add(time.Duration(a.rng.Int64N(int64(every) + 1)))
		}
		d = a.next.Sub(now)
		a.next = maxTime(a.next, now.Add(-every)).Add(every)
	} else if span := cfg.ThinkMax - cfg.ThinkMin; span > 0 || cfg.ThinkMin > 0 {
		d = cfg.ThinkMin + time.Duration(a.rng.Int64N(int64(span)+1))
	}
	return sleepOn(ctx, &a.timer, d) // a wait between acts allocates nothing
}

func (a *agent) step(ctx context.Context) {
	if a.pg == nil {
		a.observe(ctx)
		return
	}
	in, probe := a.choose()
	code, res := a.send(in, probe)
	if code != "" {
		a.refused(ctx, code, probe)
		return
	}
	if res.URL != "" {
		a.url = res.URL
	}
	if in.action == "find" || in.action == "observe" {
		a.read(res) // a new observation: its refs are the ones to act on
		return
	}
	switch {
	case res.Outcome == "navigated" || res.Outcome == "loaded" || res.Outcome == "load_pending",
		in.action == "navigate" || in.action == "back" || in.action == "submit":
		a.pg = nil // the page changed: observe before the next input
	}
}

func (a *agent) observe(ctx context.Context) {
	code, res := a.send(&act{action: "observe"}, false)
	if code != "" {
		a.refused(ctx, code, false)
		return
	}
	a.read(res)
}

// read takes an observation (observe or find) as the latest evidence.
func (a *agent) read(res *messages.ActReplyResult) {
	a.prev, a.last = a.last, res.Observation
	a.seen = a.asked
	a.url = res.URL
	text := a.text // where the answer's text was decoded, unless encoding/json read it
	if res.Text != "" {
		text = append(text[:0], res.Text...)
	}
	a.pg = a.room.parse(res.Observation, res.URL, text)
	if !a.observed {
		a.observed = true
		a.r.stats.established.Add(1)
	}
}

// send posts one act and records it with the checker and the stats.
func (a *agent) send(in *act, probe bool) (string, *messages.ActReplyResult) {
	r := a.r
	a.buf = in.appendBody(a.buf[:0], a.conv)
	ca := r.check.Sent(a.conv, in.action, probe)
	a.asked = a.holds()
	start := time.Now()
	rep := &a.rep
	*rep = actReply{TextInto: &a.text}
	err := a.via.calls.do("POST", "/api/tools/browser.act", a.token, a.buf, rep)
	d := time.Since(start)
	code := ""
	switch {
	case err != nil:
		code = codeTransport
		r.transportErr(err)
	case rep.Error != nil:
		code = string(rep.Error.Code)
		if o := rep.Error.Observation; o != nil {
			// A refusal before input brings the page as it is now: it is
			// the latest observation from here on.
			a.evidence = true
			defer a.read(o)
		}
	case !rep.OK:
		code = codeNotOK
	}
	r.check.Done(ca, code)
	a.via.record(d, code)
	label := in.action
	if probe {
		label = "probe"
	}
	expected := a.expected(code, probe)
	if !expected && rep.Error != nil && r.unprovoked.Add(1) <= maxUnprovokedNotes {
		// kept for the report: what the daemon said, not only its code
		r.note("%s of %s through %s was answered %s, which the run did not provoke: %s",
			label, a.conv, a.via.url, code, messages.Clip(rep.Error.Message, 300))
	}
	r.stats.recordAct(label, d, code, probe, expected)
	return code, &rep.Result
}

// expected reports whether an error is one the run provoked.
func (a *agent) expected(code string, probe bool) bool {
	switch {
	case code == "" || expectedCodes[code]:
		return true
	case code == string(messages.CodeStaleObservation) || code == string(messages.CodeStaleRef):
		// On purpose, or the owner held the conversation between two acts.
		return probe || a.holds() != a.seen
	}
	return false
}

func (a *agent) holds() [2]int64 { return [2]int64{a.held.Load(), a.r.stops.Load()} }

// refused reacts to an act the daemon said no to.
func (a *agent) refused(ctx context.Context, code string, probe bool) {
	if code == string(messages.CodeStaleObservation) || code == string(messages.CodeStaleRef) {
		// As intended, or not: either way the refusal brought a new
		// observation (read in send), or the latest one still holds.
		evidence := a.evidence
		a.evidence = false
		if probe || evidence {
			return
		}
	}
	a.pg = nil
	switch code {
	case string(messages.CodePaused):
		a.r.check.Paused(a.conv)
		a.resumePaused()
	case string(messages.CodeBudgetSpent), string(messages.CodeNoTask), string(messages.CodeExpired), string(messages.CodeReleased):
		a.renew(ctx, code)
	case string(messages.CodeStopped), string(messages.CodeTakenOver):
		sleep(ctx, 25*time.Millisecond) // the owner holds it; don't spin
	case codeTransport:
		sleep(ctx, 50*time.Millisecond)
	}
}

// resumePaused is the owner resuming a session a pause rule stopped.
func (a *agent) resumePaused() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.r.check.Resuming(a.conv)
	if code, _ := a.r.convControl(nil, "resume", "/api/browser/resume", a.conv); code == codeTransport || code == string(messages.CodeTimeout) {
		a.r.note("the resume of %s after a pause got no answer (%s); the owner API lists it as %s", a.conv, code, a.r.sessionState(a.conv))
	}
}

// renew asks the owner API for a new task once the old one ended, releasing
// the old session first when the controller still holds it. A conversation
// whose new task keeps failing is stuck (see stats.stuck); the agent then
// goes on under a new conversation id so the load does not thin out. A
// task refused with stopped while the owner's Stop holds is waited out: it
// counts towards stuck only once the Stop was lifted.
func (a *agent) renew(ctx context.Context, why string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for attempt := 0; ctx.Err() == nil; attempt++ {
		code := a.r.startTask("task", a.name, a.conv, maxSteps)
		switch {
		case code == "":
			a.r.stats.renewed(why)
			a.url = ""
			return
		case code == string(messages.CodeStopped) && a.r.stopping.Load():
			// The owner's Stop holds every task off until the resume;
			// waiting it out is not being stuck.
			sleep(ctx, 25*time.Millisecond)
			attempt--
			continue
		case attempt == renewAttempts:
			if n := a.r.stats.count(a.r.stats.stuck, code); n <= 3 {
				a.r.note("%s was stuck (a new task kept failing with %s); its agent went on as %s.%d", a.conv, code, a.base, a.gen+1)
			}
			a.gen++
			a.conv = fmt.Sprintf("%s.%d", a.base, a.gen)
			attempt = -1
			continue
		case code == string(messages.CodeTaskActive) && attempt >= 2:
			a.r.ownerCall("release", "POST", "/api/browser/release", messages.OwnerBody{Conversation: a.conv})
		}
		sleep(ctx, time.Duration(min(attempt+1, 10))*time.Millisecond)
	}
}

// maxSteps is the budget of a renewed task: the most the controller allows.
const maxSteps = 80

// renewAttempts is how often a new task is tried before the conversation
// counts as stuck.
const renewAttempts = 12

// sleep waits d or until ctx ends; false once ctx has ended.
func sleep(ctx context.Context, d time.Duration) bool {
	var t *time.Timer
	return sleepOn(ctx, &t, d)
}

// sleepOn is sleep on the timer *t keeps, made on first use and reset on
// each after (Go's timers since 1.23 hold no stale fire across a Reset).
func sleepOn(ctx context.Context, t **time.Timer, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	if *t == nil {
		*t = time.NewTimer(d)
	} else {
		(*t).Reset(d)
	}
	select {
	case <-ctx.Done():
		(*t).Stop()
		return false
	case <-(*t).C:
		return true
	}
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

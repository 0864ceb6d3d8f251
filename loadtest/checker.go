package loadtest

import (
	"fmt"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Checker checks the run's invariants from a stream of events: what the
// harness sent and got back, what reached a page (the sim driver's input
// hook), and what the owner did and had acknowledged. It keeps a fixed
// amount of state per conversation, so it can watch a long run.
//
// Inputs are matched to acts by credits: an act that can dispatch input
// opens one credit, the input it causes consumes it. An input with no open
// credit was not asked for (a replay, or a second input for one act). An
// act in flight when it was abandoned (taken over, stopped, released, timed
// out) keeps its credit for a short grace, since its input may have been
// dispatched just before the abandonment and reported just after; the
// credit is cancelled when the owner hands back, so a replay after resume
// is caught. An input is matched to the act in flight first, else to the
// latest abandoned act.
//
// Windows: a conversation is held from the acknowledged take-over (or the
// paused answer) until its resume is sent; everything is held from the
// acknowledged Stop until resume-all is sent. An input in a window is a
// violation unless it consumes the credit of an act sent before the window
// opened (the act was in flight and may have reached the page first).
//
// All methods are safe for concurrent use.
type Checker struct {
	mu    sync.Mutex
	now   func() time.Time
	grace time.Duration
	seq   uint64
	convs map[string]*convState

	stopped    bool
	stopEpoch  uint64
	stopOpened uint64

	checked    [numInvariants]int64
	violations [numInvariants]int64
	examples   [numInvariants][]string
	na         [numInvariants]string
	tolerated  int64 // inputs of acts in flight as a window opened
	memNote    string
}

type convState struct {
	credits []credit
	held    bool   // taken over or paused
	opened  uint64 // seq at which the hold began
}

type credit struct {
	act       uint64
	kind      string
	sent      uint64
	consumed  bool
	abandoned time.Time // zero while the act is in flight or answered normally
}

// Act is one act the harness sent, as the checker knows it.
type Act struct {
	id        uint64
	conv      string
	kind      string
	probe     bool
	input     bool
	stopEpoch uint64 // non-zero when sent while a Stop was acknowledged
	held      bool   // sent while its conversation or everything was held
}

// Codes with which an act in flight may be abandoned after its input
// reached the page.
var abandonCodes = map[string]bool{
	string(messages.CodeTakenOver): true, string(messages.CodeStopped): true, string(messages.CodeReleased): true, string(messages.CodeExpired): true,
	string(messages.CodeTimeout): true, codeTransport: true, string(messages.CodeInterrupted): true,
}

// Codes with which an act sent into a hold is refused at the door: it was
// never dispatched, so no input may follow.
var heldCodes = map[string]bool{string(messages.CodeTakenOver): true, string(messages.CodeStopped): true, string(messages.CodePaused): true}

const maxExamples = 5

// NewChecker returns a checker; now is its clock (time.Now when nil) and
// grace how long an abandoned act's input may still arrive.
func NewChecker(now func() time.Time, grace time.Duration) *Checker {
	if now == nil {
		now = time.Now
	}
	return &Checker{now: now, grace: grace, convs: make(map[string]*convState)}
}

// NotApplicable marks an invariant that this run cannot check, with why.
func (c *Checker) NotApplicable(i Invariant, why string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.na[i] = why
}

func (c *Checker) conv(name string) *convState {
	s := c.convs[name]
	if s == nil {
		s = &convState{}
		c.convs[name] = s
	}
	return s
}

// Forget drops what the checker holds of conversations that are over and
// get no more acts (an idle round's, once released), so a run of many
// rounds does not grow with them.
func (c *Checker) Forget(convs ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, conv := range convs {
		delete(c.convs, conv)
	}
}

func (c *Checker) violate(i Invariant, format string, args ...any) {
	if c.na[i] != "" {
		return
	}
	c.violations[i]++
	if len(c.examples[i]) < maxExamples {
		c.examples[i] = append(c.examples[i], fmt.Sprintf(format, args...))
	}
}

// Sent records an act about to be sent. kind is the act's action; probe
// marks a click deliberately naming stale evidence.
func (c *Checker) Sent(conv, kind string, probe bool) Act {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	a := Act{id: c.seq, conv: conv, kind: kind, probe: probe,
		input: drivers.Kind(kind).Mutating() && c.na[NoReplay] == ""}
	s := c.conv(conv)
	if c.stopped {
		a.stopEpoch = c.stopEpoch
	}
	a.held = c.stopped || s.held
	if a.input {
		s.credits = append(s.credits, credit{act: a.id, kind: kind, sent: c.seq})
	}
	return a
}

// Done records the answer to an act: "" for success, else its error code
// ("transport" when no answer came).
func (c *Checker) Done(a Act, code string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.stopWindow(a, code)
	if a.probe {
		c.checked[StaleRefused]++
		if code == "" {
			c.violate(StaleRefused, "%s: a %s naming stale evidence succeeded", a.conv, a.kind)
		}
	}
	if !a.input {
		return
	}
	s := c.conv(a.conv)
	i := s.find(a.id)
	if i < 0 {
		return
	}
	cr := &s.credits[i]
	switch {
	case code == "" || code == string(drivers.CodePartial):
		if !cr.consumed {
			c.violate(NoReplay, "%s: an accepted %s (act %d) reached no page", a.conv, a.kind, a.id)
		}
		s.drop(i)
	case abandonCodes[code] && !cr.consumed && (!a.held || !heldCodes[code]):
		cr.abandoned = c.now()
	default:
		// Refused before dispatch, failed at the driver, or (restarted)
		// crashed after its input was already reported: nothing more may come.
		s.drop(i)
	}
}

// stopWindow checks an act sent after an acknowledged Stop and answered
// before resume-all was sent.
func (c *Checker) stopWindow(a Act, code string) {
	if a.stopEpoch == 0 || !c.stopped || a.stopEpoch != c.stopEpoch || code == codeTransport {
		return
	}
	c.checked[StopNotLost]++
	c.checked[NothingAfterStop]++
	switch {
	case code == "":
		c.violate(NothingAfterStop, "%s: a %s succeeded after stop-all was acknowledged", a.conv, a.kind)
	case code != string(messages.CodeStopped):
		c.violate(StopNotLost, "%s: a %s after an acknowledged Stop answered %q, not stopped", a.conv, a.kind, code)
	}
}

// Input records one input that reached a page of conv.
func (c *Checker) Input(conv, kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	s := c.conv(conv)
	c.checked[NoReplay]++
	c.checked[NoInputWhileHeld]++ // every input is checked against the holds
	s.expire(c.now(), c.grace)
	i := s.source()
	held, opened := c.window(s)
	if i < 0 {
		c.violate(NoReplay, "%s: a %s reached the page with no accepted act outstanding (replayed or spurious)", conv, kind)
		if held {
			c.violate(NoInputWhileHeld, "%s: a %s reached the page while held", conv, kind)
		}
		return
	}
	cr := &s.credits[i]
	cr.consumed = true
	sent := cr.sent
	if cr.kind != kind {
		c.violate(NoReplay, "%s: a %s reached the page for a %s act", conv, kind, cr.kind)
	}
	if !cr.abandoned.IsZero() {
		s.drop(i) // its act was already answered; nothing else waits for it
	}
	if !held {
		return
	}
	if sent < opened {
		c.tolerated++
		return
	}
	c.violate(NoInputWhileHeld, "%s: a %s sent after the hold began reached the page", conv, kind)
}

// window reports whether conv is held now and since when.
func (c *Checker) window(s *convState) (bool, uint64) {
	switch {
	case s.held && c.stopped:
		return true, min(s.opened, c.stopOpened)
	case s.held:
		return true, s.opened
	case c.stopped:
		return true, c.stopOpened
	}
	return false, 0
}

// TookOver records an acknowledged take-over of conv.
func (c *Checker) TookOver(conv string) { c.hold(conv) }

// Paused records that conv's agent was told its session is paused.
func (c *Checker) Paused(conv string) { c.hold(conv) }

func (c *Checker) hold(conv string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	s := c.conv(conv)
	if !s.held {
		s.held, s.opened = true, c.seq
	}
}

// Resuming records that a resume of conv is about to be sent.
func (c *Checker) Resuming(conv string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	s := c.conv(conv)
	s.held = false
	s.cancelAbandoned()
}

// Stopped records an acknowledged stop-all.
func (c *Checker) Stopped() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	if !c.stopped {
		c.stopped, c.stopEpoch, c.stopOpened = true, c.stopEpoch+1, c.seq
	}
}

// Health records what /healthz said during a Stop.
func (c *Checker) Health(stopped bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.stopped {
		return
	}
	c.checked[StopNotLost]++
	if !stopped {
		c.violate(StopNotLost, "/healthz says not stopped after an acknowledged Stop")
	}
}

// ResumingAll records that resume-all is about to be sent.
func (c *Checker) ResumingAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.stopped = false
	for _, s := range c.convs {
		s.cancelAbandoned()
	}
}

func (s *convState) find(act uint64) int {
	for i := range s.credits {
		if s.credits[i].act == act {
			return i
		}
	}
	return -1
}

// source is the credit an input most likely belongs to: the act still in
// flight (an agent has at most one), else the latest abandoned act.
func (s *convState) source() int {
	abandoned := -1
	for i := len(s.credits) - 1; i >= 0; i-- {
		switch cr := &s.credits[i]; {
		case cr.consumed:
		case cr.abandoned.IsZero():
			return i
		case abandoned < 0:
			abandoned = i
		}
	}
	return abandoned
}

func (s *convState) drop(i int) { s.credits = append(s.credits[:i], s.credits[i+1:]...) }

// expire drops abandoned credits older than grace.
func (s *convState) expire(now time.Time, grace time.Duration) {
	s.filter(func(cr credit) bool { return cr.abandoned.IsZero() || now.Sub(cr.abandoned) <= grace })
}

// cancelAbandoned drops every abandoned credit: after a hand-back, an
// abandoned act's input can only be a replay.
func (s *convState) cancelAbandoned() {
	s.filter(func(cr credit) bool { return cr.abandoned.IsZero() })
}

func (s *convState) filter(keep func(credit) bool) {
	out := s.credits[:0]
	for _, cr := range s.credits {
		if keep(cr) {
			out = append(out, cr)
		}
	}
	s.credits = out
}

// HandFrame records one frame a remote hand received; problem says which
// rule it broke ("" for none).
func (c *Checker) HandFrame(conv, problem string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.checked[HandFrames]++
	if problem != "" {
		c.violate(HandFrames, "%s: %s", conv, problem)
	}
}

package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// maxShots is how many screenshots a session keeps as thumbnails.
const maxShots = 8

// statusWait bounds the driver's status report.
const statusWait = 2 * time.Second

// observation is the agent's view of one observation: its time, then one
// fence around the title, the tabs, the tree and the targets. The
// screenshot is the agent's only when it asked for one (a watched session
// takes one for its surface every time).
func (a *Actor) observation(id string, o *drivers.Observation, withShot bool) *messages.Observation {
	at := o.TakenAt.UTC().Truncate(time.Second)
	head := observedAt(at)
	if o.Tree == "" && o.Title == "" && blankPage(o.URL) {
		head += blankTab
	}
	var p pageText
	p.open(head, "page", len(o.Title)+len(o.Tree)+64)
	p.title(o.Title)
	p.tabs(o.Tabs, false)
	p.section("", o.Tree)
	p.targets(o.Tree, o.Refs)
	r := &messages.Observation{
		ID: id, ObservedAt: at,
		Text: a.fenced(&p),
		URL:  o.URL, Title: o.Title, Tab: o.Tab, Tabs: others(o.Tabs),
		StepsLeft: a.stepsLeft(), Truncated: o.Truncated, Continues: o.Continues,
	}
	r.Lend(p.lease())
	if withShot {
		r.Screenshot = o.Screenshot
	}
	if o.Continues != nil {
		left := o.Continues.Left
		r.Left = &left
	}
	return r
}

// blankTab is what an observation of a tab with no page in it says, so
// that an agent reads what to do rather than an empty answer (a new tab, or
// the tab a Stop and a resume leave).
const blankTab = "This tab is blank: no page is open in it, so there is nothing to act on. Navigate to an address first.\n"

// blankPage reports whether u is a tab's address before any page: none,
// or about:blank.
func blankPage(u string) bool { return u == "" || u == "about:blank" }

// observedAt is an observation's first line, "Observed 15:04:05 UTC.",
// made in one allocation.
func observedAt(at time.Time) string {
	var b [32]byte
	line := append(b[:0], "Observed "...)
	line = at.AppendFormat(line, "15:04:05")
	return string(append(line, " UTC.\n"...))
}

// dotted is prefix, then a and b with a dot between: an observation's id
// ("o3.12"), a page's count ("3.12"); made in one allocation.
func dotted(prefix string, a, b int) string {
	var buf [48]byte
	s := append(buf[:0], prefix...)
	s = strconv.AppendInt(s, int64(a), 10)
	s = append(s, '.')
	return string(strconv.AppendInt(s, int64(b), 10))
}

// outcome is the agent's view of an action's result: what it read of the
// page (title, tabs, dom or console text, masked) in one fence.
func (a *Actor) outcome(in *messages.ActInput, o *drivers.Outcome) *messages.Outcome {
	tabs := o.Tabs
	if in.Action != "tab" {
		tabs = others(tabs)
	}
	r := &messages.Outcome{Outcome: o.Result, StepsLeft: a.stepsLeft(), URL: o.URL,
		Title: o.Title, Tabs: tabs, Screenshot: o.Image}
	kind := in.Action
	if o.Text == "" {
		kind = "page" // the title alone: the fence needs no kind
	}
	var p pageText
	p.open("", kind, len(o.Title)+len(o.Text)+64)
	p.title(o.Title)
	p.tabs(o.Tabs, in.Action == "tab")
	p.section(in.Action, o.Text)
	r.Text = a.fenced(&p)
	r.Lend(p.lease())
	if in.Action == "dom" {
		r.AuthenticatedUser = messages.AuthenticatedUser
	}
	if len(o.Image) > 0 {
		r.Width, r.Height = o.Width, o.Height
	}
	if spec := messages.Spec(in.Action); spec.Mutating || spec.ChangesPage {
		r.Next = messages.ObserveAgain
	}
	return r
}

// others is the tabs an answer lists: none when the tab it names is the
// only one (its id and address are the answer's own).
func others(tabs []messages.Tab) []messages.Tab {
	if len(tabs) < 2 {
		return nil
	}
	return tabs
}

// scriptResult is the agent's view of the steps of a script that ran: each
// step's outcome, and what the steps read, step by step, in one fence.
func (a *Actor) scriptResult(steps []messages.ScriptStep) *messages.ScriptResult {
	r := &messages.ScriptResult{Steps: steps, StepsLeft: a.stepsLeft(), Next: messages.ObserveAgain}
	var p pageText
	p.open("", "script", 0)
	for _, s := range steps {
		if s.Title == "" && s.Read == "" {
			continue
		}
		b := p.b()
		b.WriteString("Step ")
		b.WriteString(strconv.Itoa(s.Step))
		b.WriteString(" (")
		b.WriteString(s.Action)
		b.WriteString("):\n")
		p.title(s.Title)
		p.section("", s.Read)
		if s.Action == "dom" {
			r.AuthenticatedUser = messages.AuthenticatedUser
		}
	}
	r.Text = a.fenced(&p)
	return r
}

// keepShot keeps a screenshot's thumbnail, dropping the oldest past
// maxShots with a log line.
func (a *Actor) keepShot(thumb []byte) {
	if len(thumb) == 0 {
		return
	}
	a.shots = append(a.shots, messages.Shot{At: a.cfg.Now().UTC(), JPEG: thumb, URL: a.url})
	if len(a.shots) > maxShots {
		a.cfg.Log.Info("dropped the oldest screenshot", "conversation", a.cfg.Conversation, "kept", maxShots)
		a.shots = a.shots[1:]
	}
}

// answerStatus answers browser.status off the mailbox: the driver's report
// may read the disk, and the session does not wait for it.
func (a *Actor) answerStatus(ctx actor.Context) {
	r := &messages.Status{Session: a.info(), StepsLeft: a.stepsLeft(),
		Expires: a.task.Expires, Task: a.task.Description, Reach: a.reach()}
	drv, to, sys := a.cfg.Driver, ctx.Sender(), ctx.ActorSystem()
	a.off(func() {
		c, cancel := context.WithTimeout(context.Background(), statusWait)
		defer cancel()
		r.Browser = drv.Status(c)
		sys.Root.Send(to, &messages.ToolResult{Result: r})
	})
}

// info is this session as the owner sees it.
func (a *Actor) info() messages.SessionInfo {
	reason, hand, driving := "", "", false
	switch s := a.st.(type) {
	case *paused:
		reason = s.reason
	case *takenOver:
		hand, driving = s.reason, s.driving
	}
	return messages.SessionInfo{
		Conversation: a.cfg.Conversation, Agent: a.cfg.Agent, State: a.st.name(),
		PauseReason: reason, HandReason: hand, Driving: driving, Task: a.task.Description,
		StepsUsed: a.rec.StepsUsed, StepsMax: a.task.MaxSteps, Expires: a.task.Expires,
		URL: a.url, Profile: a.cfg.Profile, Computer: a.computer(), PageAt: a.pageAt,
	}
}

// computer reports whether the session works in the owner's own apps (Use
// my apps), where the owner takes over at the computer.
func (a *Actor) computer() bool { return drivers.OpensApps(a.cfg.Driver, nil) }

func (a *Actor) infoPtr() *messages.SessionInfo {
	i := a.info()
	return &i
}

// summary is the sentence that says what got done when a task ends.
func summary(why string, used, budget int, url string) string {
	s := fmt.Sprintf("The task ended because %s, after %d of %d steps", why, used, budget)
	if url != "" {
		s += "; the last page was " + url
	}
	return s + "."
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

package e2e_test

import (
	"strings"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// shown is how every surface should show one conversation: state as
// `buddi sessions`, /healthz and the agent's browser.status say it, label
// as the dashboard's badge, and telegram in the /browser answer of the
// chat bound to it. The zero shown is no session at all.
type shown struct{ state, label, telegram string }

var (
	shownReady     = shown{messages.StateReady, "Ready", "ready: the agent may act"}
	shownTakenOver = shown{messages.StateTakenOver, "Taken over", "taken over: you are driving"}
	shownNone      = shown{}
)

// read checks every surface against want, one entry per conversation and
// nothing else; the Telegram chat is bound to c1. /healthz and the agent's
// browser.status say stopped when a conversation is.
func (s *surfaces) read(t *testing.T, page pw.Page, want map[string]shown) {
	t.Helper()
	for conv, w := range want {
		card := page.Locator(`article.session[data-conversation="` + conv + `"]`)
		if w == shownNone {
			webtest.Gone(t, card)
		} else {
			webtest.Visible(t, card.Locator(".badge", pw.LocatorLocatorOptions{HasText: w.label}))
		}
	}
	cli := s.cli(t)
	listed := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(cli), "\n")[1:] {
		if f := strings.Fields(line); len(f) >= 3 {
			listed[f[0]] = f[2]
		}
	}
	for conv := range listed {
		if _, ok := want[conv]; !ok {
			t.Errorf("buddi sessions shows %s, which no session should be:\n%s", conv, cli)
		}
	}
	counts := map[string]int{}
	for conv, w := range want {
		if listed[conv] != w.state {
			t.Errorf("buddi sessions shows %s as %q, want %q:\n%s", conv, listed[conv], w.state, cli)
		}
		if w != shownNone {
			counts[w.state]++
		}
	}
	stopped := counts[messages.StateStopped] > 0
	h := s.health(t)
	for state, n := range counts {
		if h.States[state] != n {
			t.Errorf("/healthz counts %d sessions %s, want %d (it says %v)", h.States[state], state, n, h.States)
		}
	}
	if len(h.States) != len(counts) || h.Stopped != stopped {
		t.Errorf("/healthz says stopped=%v and sessions %v, want %v", h.Stopped, h.States, counts)
	}
	tg := s.telegram(t)
	if w := want["c1"]; w == shownNone {
		if strings.Contains(tg, "c1 (ada)") {
			t.Errorf("Telegram's /browser still shows c1: %q", tg)
		}
	} else if !strings.Contains(tg, "c1 (ada): "+w.telegram) {
		t.Errorf("Telegram's /browser says %q, want c1 %s", tg, w.telegram)
	}
	for conv, w := range want {
		st := s.b.Tool(t, s.tok, "browser.status", conv, in{}).Map()
		state := w.state
		if w == shownNone {
			state = messages.StateNoSession
		}
		if st["state"] != state || st["stopped"] != stopped {
			t.Errorf("the agent's browser.status of %s says state %v and stopped %v, want %s", conv, st["state"], st["stopped"], state)
		}
	}
}

// Every owner control on one session, from a phone's dashboard, and what
// each surface shows after it: take over, give back and release c1 while
// c2 runs on, then remove the agent; the agent's next act on each answers
// what the surfaces say.
// Stop all has its own test (TestE2EStopAndResumeReadTheSameOnEverySurface).
func TestE2EEveryControlOfOneSessionReadsTheSameOnEverySurface(t *testing.T) {
	s, _ := twoSessions(t)
	b, tok := s.b, s.tok

	phone := webtest.Phone(t, webtest.Browser(t), false)
	signIn(t, b, phone)
	s.read(t, phone, map[string]shown{"c1": shownReady, "c2": shownReady})

	card := phone.Locator(`article.session[data-conversation="c1"]`)
	press := func(name string) {
		t.Helper()
		webtest.Click(t, card.Locator("button", pw.LocatorLocatorOptions{HasText: name}))
	}
	steps := []struct {
		control string
		do      func()
		c1      shown
		act     string // the code of the agent's next act on c1, or "" for an answer
	}{
		{"take over", func() { press("Take over") }, shownTakenOver, string(messages.CodeTakenOver)},
		{"give back", func() { press("Resume access") }, shownReady, ""},
		{"release", func() { press("Close & release") }, shownNone, string(messages.CodeNoTask)},
	}
	for _, step := range steps {
		step.do()
		s.read(t, phone, map[string]shown{"c1": step.c1, "c2": shownReady})
		if t.Failed() {
			t.Fatalf("after %s the surfaces disagree (above)", step.control)
		}
		r := b.Act(t, tok, "c1", in{"action": "observe"})
		if step.act == "" {
			ok(t, r)
		} else {
			daemontest.WantCode(t, r, step.act)
		}
		ok(t, b.Act(t, tok, "c2", in{"action": "observe"})) // the other session runs on
	}

	// Removing the agent ends its last session, c2, on every surface, and
	// its token is refused.
	b.Must(t, "DELETE", "/api/agents/ada", nil)
	webtest.Gone(t, phone.Locator("article.session"))
	if cli := s.cli(t); strings.Contains(cli, "c2") {
		t.Errorf("buddi sessions still shows c2 after its agent was removed:\n%s", cli)
	}
	if h := s.health(t); len(h.States) != 0 {
		t.Errorf("/healthz counts sessions %v after the agent was removed, want none", h.States)
	}
	daemontest.WantCode(t, b.Act(t, tok, "c2", in{"action": "observe"}), string(messages.CodeUnauthorized))
}

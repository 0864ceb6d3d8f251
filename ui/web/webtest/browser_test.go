package webtest_test

import (
	"strings"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

func TestTheHostBrowserPageFollowsAnAgentLive(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	c := card(p, "c1")
	webtest.Visible(t, c.Locator(".badge", pw.LocatorLocatorOptions{HasText: "Ready"}))
	navigate(t, o, tok, "c1", 3)
	webtest.Visible(t, c.Locator(".url", pw.LocatorLocatorOptions{HasText: sim.Origin + "/p/3"}))
	webtest.Visible(t, c.Locator(`[data-steps="1"]`))
	shot := c.Locator("img.shot")
	webtest.Visible(t, shot)
	first, _ := shot.GetAttribute("data-at")
	o.Observe(t, tok, "c1")
	webtest.Visible(t, c.Locator(`[data-steps="2"]`))
	webtest.Visible(t, c.Locator(".caption", pw.LocatorLocatorOptions{HasText: "Captured"}))
	if err := p.Locator(`article.session[data-conversation="c1"] img.shot:not([data-at="` + first + `"])`).WaitFor(); err != nil {
		t.Fatalf("the picture was not replaced after the second act: %v", err)
	}
	if got := text(t, c.Locator(".steps")); got == "" || !strings.Contains(got, "Step 2 of 80") || !strings.Contains(got, "expires in") {
		t.Fatalf("steps line %q, want the steps used of max and the expiry", got)
	}
	webtest.Screenshot(t, p, "desktop-browser")
}

func TestOwnerControlsAnswerAtOnceAndSayWhatHappened(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 1)
	c := card(p, "c1")

	webtest.Click(t, c.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
	said(t, c, "Taken over: ada is paused")
	webtest.Visible(t, c.Locator(".badge.taken_over", pw.LocatorLocatorOptions{HasText: "Taken over"}))
	if r := o.Act(t, tok, "c1", in{"action": "observe"}); r.OK || r.Code() != messages.CodeTakenOver {
		t.Fatalf("the agent acted during the take-over: %v", r.Code())
	}

	webtest.Click(t, c.Locator("button", pw.LocatorLocatorOptions{HasText: "Resume access"}))
	said(t, c, "Access resumed")
	webtest.Visible(t, c.Locator(".badge.ready"))
	o.Observe(t, tok, "c1")

	stop := p.Locator(".stop-box")
	webtest.Click(t, stop.Locator("button", pw.LocatorLocatorOptions{HasText: "Stop all browsers"}))
	said(t, stop, "All browser access is stopped: 1 session")
	webtest.Visible(t, c.Locator(".badge.stopped", pw.LocatorLocatorOptions{HasText: "Stopped: tabs closed"}))
	if n, err := p.Locator(".banner .stopped").Count(); err != nil || n != 0 {
		t.Fatalf("the Host browser page says the Stop in a banner too (%d, %v): once is enough", n, err)
	}
	if n, err := c.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}).Count(); err != nil || n != 0 {
		t.Fatalf("a stopped session offers Take over (%d, %v)", n, err)
	}
	if r := o.Act(t, tok, "c1", in{"action": "observe"}); r.OK || r.Code() != messages.CodeStopped {
		t.Fatalf("the agent acted during the Stop: %v", r.Code())
	}
	webtest.Screenshot(t, p, "desktop-browser-stopped")
	goTo(t, o, p, "#/tasks")
	webtest.Visible(t, p.Locator(".banner .stopped"))
	goTo(t, o, p, "#/browser")
	webtest.Click(t, stop.Locator("button", pw.LocatorLocatorOptions{HasText: "Resume access"}))
	said(t, stop, "Browser access is resumed. Agents with a task may go on")
	webtest.Visible(t, c.Locator(".badge.ready"))

	webtest.Click(t, c.Locator("button", pw.LocatorLocatorOptions{HasText: "Close & release"}))
	webtest.Gone(t, c)
	if r := o.Act(t, tok, "c1", in{"action": "observe"}); r.OK || r.Code() != messages.CodeNoTask {
		t.Fatalf("the released conversation still acts: %v", r.Code())
	}
}

// A dashboard opened after a Stop shows the session's picture from before
// it, not that there is none yet: the stopped session has no address (its
// tabs closed), and the dashboard asked for a picture only of a session
// with one.
func TestADashboardOpenedAfterAStopShowsThePictureFromBeforeIt(t *testing.T) {
	o := start(t, daemon.Options{})
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 1)
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	webtest.Visible(t, card(p, "c1").Locator(".snapshot img.shot[data-at]"))
	o.Must(t, "POST", "/api/browser/stop", in{})
	later := o.Page(t, 375, 812)
	o.SignIn(t, later)
	c := card(later, "c1")
	webtest.Visible(t, c.Locator(".badge.stopped"))
	webtest.Visible(t, c.Locator(".snapshot img.shot[data-at]"))
	webtest.Visible(t, c.Locator(".snapshot figcaption", pw.LocatorLocatorOptions{HasText: "before the Stop"}))
}

// A sentence a control left beside it goes when another surface changes
// the state it speaks of (here the owner API, as the CLI calls it): the
// card's "Taken over" after a resume elsewhere, the Stop box's "stopped"
// after a resume elsewhere and its "resumed" after a Stop elsewhere. No
// line keeps saying a state that no longer holds.
func TestASentenceBesideAControlGoesWhenAnotherSurfaceChangesItsState(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 375, 812)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 1)
	c := card(p, "c1")
	stop := p.Locator(".stop-box")
	empty := func(where pw.Locator, after string) {
		t.Helper()
		if got := text(t, where.Locator(".said")); got != "" {
			t.Fatalf("after %s the line still says %q", after, got)
		}
	}

	webtest.Click(t, c.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
	said(t, c, "Taken over: ada is paused")
	// The card shows the take-over before it is resumed elsewhere: the
	// answer can come before the session's new state does.
	webtest.Visible(t, c.Locator(".badge.taken_over"))
	o.Must(t, "POST", "/api/browser/resume", messages.OwnerBody{Conversation: "c1"})
	webtest.Visible(t, c.Locator(".badge.ready"))
	empty(c, "a resume elsewhere")

	webtest.Click(t, stop.Locator("button", pw.LocatorLocatorOptions{HasText: "Stop all browsers"}))
	said(t, stop, "All browser access is stopped: 1 session")
	o.Must(t, "POST", "/api/browser/resume", in{"all": true})
	webtest.Visible(t, stop.Locator("button", pw.LocatorLocatorOptions{HasText: "Stop all browsers"}))
	empty(stop, "a resume of all elsewhere")

	webtest.Click(t, stop.Locator("button", pw.LocatorLocatorOptions{HasText: "Stop all browsers"}))
	said(t, stop, "All browser access is stopped")
	webtest.Click(t, stop.Locator("button", pw.LocatorLocatorOptions{HasText: "Resume access"}))
	said(t, stop, "Browser access is resumed")
	o.Must(t, "POST", "/api/browser/stop", in{})
	webtest.Visible(t, stop.Locator("button", pw.LocatorLocatorOptions{HasText: "Resume access"}))
	empty(stop, "a Stop elsewhere")
}

// A sentence whose state the card never showed goes too: the page missed
// the take-over and the resume after it (here its socket dropped while
// they happened, and the new one's hello says Ready), so "Taken over"
// would otherwise stay beside a Ready card.
func TestASentenceWhoseStateNeverShowedGoes(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 375, 812)
	events := newHeldEvents(t, p)
	o.SignIn(t, p)
	tok := agent(t, o, "ada", "c1")
	navigate(t, o, tok, "c1", 1)
	c := card(p, "c1")
	webtest.Visible(t, c.Locator(".badge.ready"))

	events.hold()
	webtest.Click(t, c.Locator("button", pw.LocatorLocatorOptions{HasText: "Take over"}))
	said(t, c, "Taken over: ada is paused")
	o.Must(t, "POST", "/api/browser/resume", messages.OwnerBody{Conversation: "c1"})
	events.lose()
	webtest.Visible(t, c.Locator(".badge.ready"))
	line := c.Locator(".said", pw.LocatorLocatorOptions{HasText: "Taken over"})
	if err := line.WaitFor(pw.LocatorWaitForOptions{State: pw.WaitForSelectorStateHidden, Timeout: pw.Float(15000)}); err != nil {
		t.Fatalf("the line still says Taken over beside a Ready card: %v", err)
	}
}

func TestTheOwnerApprovesATaskRequestAndASite(t *testing.T) {
	o := start(t, askOpts())
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	tok, req := taskRequest(t, o, p, "c2", "compare two pages")
	webtest.Visible(t, req.Locator("p", pw.LocatorLocatorOptions{HasText: "compare two pages"}))
	webtest.Visible(t, p.Locator(".nav-link .count", pw.PageLocatorOptions{HasText: "1"}))
	webtest.Screenshot(t, p, "desktop-tasks")
	webtest.Click(t, req.Locator("button", pw.LocatorLocatorOptions{HasText: "Accept"}))
	notice(t, p, "Accepted: ada has 80 steps in c2")
	webtest.Gone(t, req)
	o.WaitSession(t, "c2", messages.StateReady)

	if r := o.Act(t, tok, "c2", in{"action": "navigate", "url": shop + "/p/1"}); r.Code() != messages.CodeApprovalRequired {
		t.Fatalf("a first visit did not ask the owner: %v", r.Code())
	}
	ask := p.Locator(".approval", pw.PageLocatorOptions{HasText: "example.com"})
	webtest.Visible(t, ask)
	webtest.Screenshot(t, p, "desktop-tasks-approval")
	webtest.Click(t, ask.Locator("button", pw.LocatorLocatorOptions{HasText: "Once"}))
	notice(t, p, "example.com for this conversation")
	webtest.Gone(t, ask)
	if r := o.Act(t, tok, "c2", in{"action": "navigate", "url": shop + "/p/1"}); !r.OK {
		t.Fatalf("the approved site: %v", r.Code())
	}
}

// When the answer to Accept reaches the dashboard before the event that
// removes the request's card, the sentence is first said beside the button;
// when the card then goes, the sentence follows it into the notice instead
// of vanishing with the card. The events are held back in the page
// (heldEvents), so the order is the slow one every time.
func TestASentenceSaidBesideACardFollowsItIntoTheNoticeWhenTheCardGoes(t *testing.T) {
	o := start(t, askOpts())
	p := o.Page(t, 1280, 900)
	events := newHeldEvents(t, p)
	o.SignIn(t, p)
	_, req := taskRequest(t, o, p, "c3", "read one page")
	webtest.Visible(t, req)

	events.hold()
	webtest.Click(t, req.Locator("button", pw.LocatorLocatorOptions{HasText: "Accept"}))
	said(t, req, "Accepted: ada has 80 steps in c3")
	if n, err := p.Locator(".notice.show").Count(); err != nil || n != 0 {
		t.Fatalf("the notice showed while the sentence was beside the button (%d, %v): once is enough", n, err)
	}
	events.release()
	webtest.Gone(t, req)
	notice(t, p, "Accepted: ada has 80 steps in c3")
}

// A notice fades after a while, and its sentence leaves the status region
// with it: after a take-over and a give-back, say, the region would
// otherwise go on holding "Taken over" for a screen reader to find.
func TestANoticeLeavesTheStatusRegionWhenItFades(t *testing.T) {
	o := start(t, askOpts())
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	_, req := taskRequest(t, o, p, "c4", "read one page")
	webtest.Click(t, req.Locator("button", pw.LocatorLocatorOptions{HasText: "Accept"}))
	notice(t, p, "Accepted: ada has 80 steps in c4")
	webtest.Gone(t, p.Locator(".notice", pw.PageLocatorOptions{HasText: "Accepted"}))
	if text, err := p.Locator(".notice").TextContent(); err != nil || text != "" {
		t.Fatalf("the faded notice still says %q (%v)", text, err)
	}
}

// taskRequest adds agent ada, has it ask for a task in conv, and opens the
// Tasks page, where the request's card is; it returns ada's token and the card.
func taskRequest(t *testing.T, o *owner, p pw.Page, conv, description string) (string, pw.Locator) {
	t.Helper()
	tok := o.AddAgent(t, "ada", false)
	if r := o.Tool(t, tok, "browser.task", conv, in{"description": description}); !r.OK {
		t.Fatalf("browser.task: %s", r.Code())
	}
	goTo(t, o, p, "#/tasks")
	return tok, p.Locator(`.task-request[data-conversation="` + conv + `"]`)
}

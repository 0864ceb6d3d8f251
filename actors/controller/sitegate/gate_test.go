package sitegate_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller/sitegate"
	"github.com/buddi-dev/buddi/messages"
)

func nav(url, source string) *messages.ActInput {
	return &messages.ActInput{Action: "navigate", URL: url, URLSource: source}
}

func code(e *messages.Error) messages.Code {
	if e == nil {
		return ""
	}
	return e.Code
}

func TestAskOnceAlwaysReject(t *testing.T) {
	g := sitegate.New(true, nil, nil, func() time.Time { return time.Unix(1, 0) })
	in := nav("https://www.example.com/a", "")
	e, req := g.Check("c1", "ada", in)
	if code(e) != messages.CodeApprovalRequired || req == nil || req.Site != "example.com" {
		t.Fatalf("first ask: %v %+v", e, req)
	}
	if list := g.Pending(); len(list) != 1 {
		t.Fatalf("pending = %+v", list)
	}
	ans, e := g.Decide(&messages.DecideSite{Conversation: "c1", Site: "example.com", Decision: messages.DecideOnce})
	if e != nil || !ans.Once {
		t.Fatalf("decide once: %+v %v", ans, e)
	}
	if e, _ := g.Check("c1", "ada", in); e != nil {
		t.Fatalf("after once, c1: %v", e)
	}
	if e, _ := g.Check("c2", "ada", in); code(e) != messages.CodeApprovalRequired {
		t.Fatalf("once is for c1 only; c2 got %v", e)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c2", Site: "example.com", Decision: messages.DecideReject}); e != nil {
		t.Fatal(e)
	}
	if e, _ := g.Check("c2", "ada", in); code(e) != messages.CodeNotApproved {
		t.Fatalf("after reject: %v", e)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c2", Site: "example.com", Decision: messages.DecideOnce}); code(e) != messages.CodeNoPendingApproval {
		t.Fatalf("deciding with nothing pending: %v", e)
	}
}

func TestPageLinksNeedAnApprovalEvenWhenNotAsking(t *testing.T) {
	g := sitegate.New(false, nil, nil, time.Now)
	if e, _ := g.Check("c1", "ada", nav("https://example.com/", "")); e != nil {
		t.Fatalf("the agent's own navigate: %v", e)
	}
	if e, req := g.Check("c1", "ada", nav("https://example.com/", messages.URLFromPage)); code(e) != messages.CodeUnapproved || req != nil {
		t.Fatalf("a page link: %v %+v", e, req)
	}
}

func TestPendingRequestsAreBoundedAndForgotten(t *testing.T) {
	g := sitegate.New(true, nil, nil, time.Now)
	for i := range sitegate.MaxPending {
		if e, _ := g.Check("c1", "ada", nav("https://site-"+string(rune('a'+i))+".com/", "")); code(e) != messages.CodeApprovalRequired {
			t.Fatalf("request %d: %v", i, e)
		}
	}
	if e, _ := g.Check("c1", "ada", nav("https://one-more.com/", "")); code(e) != messages.CodeTooManyRequests {
		t.Fatalf("past the bound: %v", e)
	}
	g.Forget("c1")
	if len(g.Pending()) != 0 {
		t.Fatal("a forgotten conversation's requests still wait")
	}
}

func TestOwnerListsRevokeAndAskAgain(t *testing.T) {
	g := sitegate.New(true, nil, nil, time.Now)
	nav := func(conv, u string) *messages.Error {
		e, _ := g.Check(conv, "ada", &messages.ActInput{Action: "navigate", URL: u})
		return e
	}
	nav("c1", "https://a.example.com/")
	nav("c1", "https://b.example.org/")
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c1", Site: "example.com", Decision: messages.DecideAlways}); e != nil {
		t.Fatal(e)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c1", Site: "example.org", Decision: messages.DecideReject}); e != nil {
		t.Fatal(e)
	}
	if l := g.Approved(); len(l) != 1 || l[0].Site != "example.com" {
		t.Fatalf("approved %v", l)
	}
	if l := g.Declined(); len(l) != 1 || l[0] != (messages.DeclinedSite{Conversation: "c1", Site: "example.org"}) {
		t.Fatalf("declined %v", l)
	}
	if e := nav("c1", "https://b.example.org/"); e == nil || e.Code != messages.CodeNotApproved {
		t.Fatalf("a declined site: %v", e)
	}
	if !g.AskAgain("c1", "example.org") || g.AskAgain("c1", "example.org") {
		t.Fatal("ask again did not forget the no exactly once")
	}
	if e := nav("c1", "https://b.example.org/"); e == nil || e.Code != messages.CodeApprovalRequired {
		t.Fatalf("after ask again: %v", e)
	}
	if !g.Revoke("example.com") || len(g.Approved()) != 0 {
		t.Fatal("revoke left the approval")
	}
	if e := nav("c2", "https://a.example.com/"); e == nil || e.Code != messages.CodeApprovalRequired {
		t.Fatalf("a revoked site: %v", e)
	}
}

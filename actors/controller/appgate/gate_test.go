package appgate_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller/appgate"
	"github.com/buddi-dev/buddi/messages"
)

func open(id string) *messages.ActInput { return &messages.ActInput{Action: "open", AppID: id} }

func none(string) bool { return false }

func code(e *messages.Error) messages.Code {
	if e == nil {
		return ""
	}
	return e.Code
}

func now() time.Time { return time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC) }

// TestOneCardThenTheAnswer: an unlisted app files one request naming the
// agent and the id; asking again files none; Once opens it in that
// conversation only; Reject refuses it there with the owner's sentence and
// no second card.
func TestOneCardThenTheAnswer(t *testing.T) {
	g := appgate.New(now)
	e, req := g.Check("c1", "ada", open("org.gnome.TextEditor"), none)
	if code(e) != messages.CodeApprovalRequired || req == nil || req.Agent != "ada" || req.App != "org.gnome.TextEditor" || req.Site != "app:org.gnome.TextEditor" {
		t.Fatalf("first open: %v, %+v", e, req)
	}
	if e, req := g.Check("c1", "ada", open("org.gnome.TextEditor"), none); code(e) != messages.CodeApprovalRequired || req != nil {
		t.Fatalf("second open: %v, %+v; want a refusal and no second request", e, req)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c1", Site: "app:org.gnome.TextEditor", Decision: messages.DecideOnce}); e != nil {
		t.Fatal(e)
	}
	if e, _ := g.Check("c1", "ada", open("org.gnome.TextEditor"), none); e != nil {
		t.Fatalf("open after Once: %v", e)
	}
	if e, req := g.Check("c2", "ada", open("org.gnome.TextEditor"), none); req == nil || e == nil {
		t.Fatalf("Once reached another conversation: %v", e)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c2", Site: "app:org.gnome.TextEditor", Decision: messages.DecideReject}); e != nil {
		t.Fatal(e)
	}
	e, req = g.Check("c2", "ada", open("org.gnome.TextEditor"), none)
	if code(e) != messages.CodeNotApproved || e.Message != "The owner said no to org.gnome.TextEditor this time." || req != nil {
		t.Fatalf("open after Reject: %v, %+v", e, req)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c2", Site: "app:org.gnome.TextEditor", Decision: messages.DecideOnce}); code(e) != messages.CodeNoPendingApproval {
		t.Fatalf("a second answer without a request: %v", e)
	}
	if apps := g.Forget("c2"); len(apps) != 1 {
		t.Fatalf("Forget returned %v", apps)
	}
	if _, req := g.Check("c2", "ada", open("org.gnome.TextEditor"), none); req == nil {
		t.Fatal("a new task in c2 kept the old Reject")
	}
}

// TestListedAndOtherActsPass: an app on the list and acts other than open
// by id never raise a card.
func TestListedAndOtherActsPass(t *testing.T) {
	g := appgate.New(now)
	listed := func(id string) bool { return id == "google-chrome" }
	for _, in := range []*messages.ActInput{open("google-chrome"), {Action: "open", App: "Calculator"}, {Action: "observe"}, nil} {
		if e, req := g.Check("c1", "ada", in, listed); e != nil || req != nil {
			t.Fatalf("%+v: %v, %+v", in, e, req)
		}
	}
	if len(g.Pending()) != 0 {
		t.Fatal("requests were filed")
	}
}

package appgate_test

import (
	"strings"
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
// no second card, through the conversation's next task, until the
// conversation is forgotten.
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
	if code(e) != messages.CodeNotApproved || e.Message != "The owner said no to org.gnome.TextEditor in this conversation; do the task without it." || req != nil {
		t.Fatalf("open after Reject: %v, %+v", e, req)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c2", Site: "app:org.gnome.TextEditor", Decision: messages.DecideOnce}); code(e) != messages.CodeNoPendingApproval {
		t.Fatalf("a second answer without a request: %v", e)
	}
	g.EndTask("c1")
	g.EndTask("c2")
	if e, req := g.Check("c2", "ada", open("org.gnome.TextEditor"), none); code(e) != messages.CodeNotApproved || req != nil {
		t.Fatalf("the next task of c2 lost the Reject: %v, %+v", e, req)
	}
	if e, _ := g.Check("c1", "ada", open("org.gnome.TextEditor"), none); e != nil || !g.Once("c1", "org.gnome.TextEditor") {
		t.Fatalf("the next task of c1 lost the Once: %v", e)
	}
	if apps := g.Forget("c2"); len(apps) != 1 {
		t.Fatalf("Forget returned %v", apps)
	}
	if _, req := g.Check("c2", "ada", open("org.gnome.TextEditor"), none); req == nil {
		t.Fatal("a forgotten conversation c2 kept the old Reject")
	}
}

// TestTaskEndDropsOnlyRequests: the requests of a task that ended go (no
// card waits for an agent that left), so the next task asks again.
func TestTaskEndDropsOnlyRequests(t *testing.T) {
	g := appgate.New(now)
	if _, req := g.Check("c1", "ada", open("org.gnome.Calculator"), none); req == nil {
		t.Fatal("no request filed")
	}
	g.EndTask("c1")
	if len(g.Pending()) != 0 {
		t.Fatalf("the ended task's request still waits: %+v", g.Pending())
	}
	if _, req := g.Check("c1", "ada", open("org.gnome.Calculator"), none); req == nil {
		t.Fatal("the next task was told a request waits")
	}
}

// TestRejectNamesTheApp: the refusal names the app as the card did (its
// name as installed), or as the agent named it, and its id only when
// neither is known.
func TestRejectNamesTheApp(t *testing.T) {
	cases := map[string]struct {
		asked, reopened *messages.ActInput
		want            string
	}{
		"named on the card":       {&messages.ActInput{Action: "open", AppID: "org.gnome.Calculator", App: "Calculator"}, open("org.gnome.Calculator"), "Calculator"},
		"named by the next open":  {open("org.gnome.Calculator"), &messages.ActInput{Action: "open", AppID: "org.gnome.Calculator", App: "Calculator"}, "Calculator"},
		"by id alone":             {open("org.gnome.Calculator"), open("org.gnome.Calculator"), "org.gnome.Calculator"},
		"loaded back with a name": {nil, open("org.gnome.Calculator"), "Calculator"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			g := appgate.New(now)
			if c.asked == nil {
				g.Load("c1", "org.gnome.Calculator", "Calculator", messages.DecideReject)
			} else {
				g.Check("c1", "ada", c.asked, none)
				if _, e := g.Decide(&messages.DecideSite{Conversation: "c1", Site: "app:org.gnome.Calculator", Decision: messages.DecideReject}); e != nil {
					t.Fatal(e)
				}
			}
			e, _ := g.Check("c1", "ada", c.reopened, none)
			if want := "The owner said no to " + c.want + " in"; code(e) != messages.CodeNotApproved || !strings.HasPrefix(e.Message, want) {
				t.Fatalf("got %v; want %s saying %q", e, messages.CodeNotApproved, want)
			}
		})
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

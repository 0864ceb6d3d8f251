package session_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

func observeIn(t *testing.T, w *world) *messages.Observation {
	t.Helper()
	r := w.act(t, &messages.ActInput{Action: "observe"})
	wantCode(t, r, "")
	return r.Result.(*messages.Observation)
}

// refIn finds the first target of the observation with role (and name, if
// given) in its targets list.
func refIn(t *testing.T, o *messages.Observation, role, name string) string {
	t.Helper()
	line := regexp.MustCompile(`^\s*- ` + regexp.QuoteMeta(role) + `(?: "([^"]*)")?.*\[ref=(e\d+)\]`)
	for _, l := range strings.Split(o.Text, "\n") {
		if m := line.FindStringSubmatch(l); m != nil && (name == "" || m[1] == name) {
			return m[2]
		}
	}
	t.Fatalf("no %s %q in the tree:\n%s", role, name, o.Text)
	return ""
}

func inputs(w *world) int64 { return w.drv.Stats().Total() }

// Rule 7: a refusal decided before any input (a stale observation, a stale
// ref, a target that did not take the input) comes with a new observation
// to act on, and nothing reached the page.
func TestRefusalBeforeInputBringsFreshEvidence(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	old := observeIn(t, w)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/2"}), "")
	r := w.act(t, &messages.ActInput{Action: "click", Observation: old.ID, Target: &messages.TargetRef{Ref: refIn(t, old, "link", "")}})
	wantCode(t, r, messages.CodeStaleObservation)
	ev := r.Error.Observation
	if ev == nil || ev.URL != sim.Origin+"/p/2" || ev.ID == old.ID || ev.StepsLeft != 80-4 {
		t.Fatalf("the refusal's evidence is %+v; want a new observation of /p/2, counted as a step", ev)
	}
	r = w.act(t, &messages.ActInput{Action: "click", Observation: ev.ID, Target: &messages.TargetRef{Ref: "e999999"}})
	wantCode(t, r, messages.CodeStaleRef)
	if r.Error.Observation == nil || r.Error.Observation.ID == ev.ID {
		t.Fatalf("a stale ref brought no new evidence: %+v", r.Error)
	}
	ev = r.Error.Observation
	if n := inputs(w); n != 0 {
		t.Fatalf("%d inputs were dispatched by refused calls", n)
	}
	// One step later the agent acts on the evidence it was given.
	wantCode(t, w.act(t, &messages.ActInput{Action: "click", Observation: ev.ID, Target: &messages.TargetRef{Ref: refIn(t, ev, "link", "")}}), "")
	if n := inputs(w); n != 1 {
		t.Fatalf("%d inputs reached the page, want the one click", n)
	}
}

func TestATargetThatTakesNoInputBringsFreshEvidence(t *testing.T) {
	w := start(t, sim.Config{Faults: sim.Faults{TargetMiss: 1}}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	o := observeIn(t, w)
	r := w.act(t, &messages.ActInput{Action: "click", Observation: o.ID, Target: &messages.TargetRef{Ref: refIn(t, o, "link", "")}})
	wantCode(t, r, messages.CodeTargetMiss)
	if r.Error.Observation == nil || r.Error.Observation.ID == o.ID {
		t.Fatalf("the driver's refusal brought no new evidence: %+v", r.Error)
	}
}

// Rule 6: there are no apps in the agents' own browser; open is refused
// with a sentence that says so, before it costs a step.
func TestOpenIsRefusedWithoutApps(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	r := w.act(t, &messages.ActInput{Action: "open", AppID: "com.apple.calculator"})
	wantCode(t, r, messages.CodeNoApps)
	if !strings.Contains(r.Error.Message, "no apps") {
		t.Fatalf("the refusal says %q", r.Error.Message)
	}
	if o := observeIn(t, w); o.StepsLeft != 79 {
		t.Fatalf("steps left after a refused open and an observe: %d, want 79", o.StepsLeft)
	}
}

// Rule 8: when a later step of a script fails, the answer still lists every
// step before it and what each did.
func TestAScriptThatFailsListsTheStepsThatRan(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	o := observeIn(t, w)
	link := refIn(t, o, "link", "")
	r := w.act(t, &messages.ActInput{Action: "script", Steps: []*messages.ActInput{
		{Action: "click", Observation: o.ID, Target: &messages.TargetRef{Ref: link}},
		{Action: "dom"},
		{Action: "click", Observation: o.ID, Target: &messages.TargetRef{Ref: link}},
	}})
	wantCode(t, r, messages.CodeStaleRef)
	s := r.Error.Script
	if s == nil || len(s.Steps) != 3 {
		t.Fatalf("the failed script lists %+v", s)
	}
	if s.Steps[0].Outcome != "navigated" || s.Steps[1].Outcome != "done" || s.Steps[2].Code != messages.CodeStaleRef || s.Steps[2].Outcome != "" {
		t.Fatalf("steps = %+v; want the click that navigated, the dom read, then the refused click", s.Steps)
	}
	if !strings.Contains(r.Error.Message, "step 3") || fences(s.Text) != 1 || !strings.Contains(s.Text, "Step 2 (dom)") {
		t.Fatalf("message %q, text %q", r.Error.Message, s.Text)
	}
	if n := inputs(w); n != 1 {
		t.Fatalf("%d inputs reached the page, want the first click only", n)
	}
}

// refusing is a URL policy that refuses one host, as the URL rules would.
type refusing struct{ open }

func (refusing) CheckURL(raw, _ string) error {
	if strings.Contains(raw, "refused.example") {
		return &messages.Error{Code: messages.CodeNeverAutomate, Message: "never."}
	}
	return nil
}

func TestEveryScriptStepPassesTheGatesBeforeAnyRuns(t *testing.T) {
	w := startWith(t, sim.Config{}, refusing{})
	r := w.act(t, &messages.ActInput{Action: "script", Steps: []*messages.ActInput{
		{Action: "navigate", URL: sim.Origin + "/p/1"}, {Action: "navigate", URL: "https://refused.example/"},
	}})
	wantCode(t, r, messages.CodeNeverAutomate)
	if o := observeIn(t, w); o.URL != "about:blank" || o.StepsLeft != 79 {
		t.Fatalf("after a refused script the tab is at %s with %d steps left; nothing should have run", o.URL, o.StepsLeft)
	}
}

func fences(s string) int { return strings.Count(s, "<untrusted-page-content ") }

// Rule 9: everything read from a page reaches the agent inside one fence
// per answer: titles, tab titles, trees, dom and console text, what wait_for
// and a script read. Outside the fence no page text is left.
func TestEveryReadAnswerHasOneFenceAroundThePage(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	title := "Page 3 - sim.localhost" // page 3 logs a console error too
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/3"}), "")
	o := observeIn(t, w)
	for name, in := range map[string]*messages.ActInput{
		"observe":    {Action: "observe", Screenshot: true},
		"fullPage":   {Action: "observe", FullPage: true},
		"find":       {Action: "find", Role: "link"},
		"dom":        {Action: "dom"},
		"console":    {Action: "console"},
		"wait_for":   {Action: "wait_for", Wait: &messages.WaitInput{Text: "Page 3"}},
		"wait ref":   {Action: "wait_for", Wait: &messages.WaitInput{Ref: refIn(t, o, "link", "")}},
		"screenshot": {Action: "screenshot"},
		"tab list":   {Action: "tab", Tab: "list"},
		"navigate":   {Action: "navigate", URL: sim.Origin + "/p/3"},
		"script":     {Action: "script", Steps: []*messages.ActInput{{Action: "dom"}, {Action: "wait_for", Wait: &messages.WaitInput{Load: true}}}},
	} {
		if name == "wait ref" { // its ref must be of the latest observation
			o = observeIn(t, w)
			in.Wait.Ref = refIn(t, o, "link", "")
		}
		r := w.act(t, in)
		wantCode(t, r, "")
		raw, err := json.Marshal(r.Result)
		if err != nil {
			t.Fatal(err)
		}
		var text string
		switch v := r.Result.(type) {
		case *messages.Observation:
			text = v.Text
		case *messages.Outcome:
			text = v.Text
		case *messages.ScriptResult:
			text = v.Text
		}
		hasTitle := strings.Contains(text, title) || name == "console" // console reads no title
		if n := fences(text); n != 1 || strings.Count(string(raw), "/untrusted-page-content fence=") != 1 || !hasTitle {
			t.Errorf("%s: %d fences, title inside: %v\n%s", name, n, strings.Contains(text, title), raw)
		}
		outside := strings.Replace(string(raw), mustJSON(t, text), `""`, 1)
		if strings.Contains(outside, "sim.localhost\"") || strings.Contains(outside, "Page 3") {
			t.Errorf("%s: page text outside the fence: %s", name, outside)
		}
	}
}

func mustJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Rule 10: dom says who is signed in is unknown, as a field of its own.
func TestDomSaysTheSignedInUserIsUnknown(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	r := w.act(t, &messages.ActInput{Action: "dom"})
	if out, ok := r.Result.(*messages.Outcome); !ok || out.AuthenticatedUser != "unknown" {
		t.Fatalf("dom answered %#v", r.Result)
	}
	raw, _ := json.Marshal(r.Result)
	if !strings.Contains(string(raw), `"authenticatedUser":"unknown"`) {
		t.Fatalf("the field is missing from the JSON: %s", raw)
	}
}

// Rule 11: a target by role and name, label, placeholder or text binds one
// element of the latest observation; it needs the tree unchanged.
func TestSemanticTargetsBindOneElementOfAnUnchangedTree(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/form/1"}), "")
	o := observeIn(t, w)
	if !strings.Contains(o.Text, "[ref=") {
		t.Fatalf("the observation names no element by ref:\n%s", o.Text)
	}
	fill := &messages.ActInput{Action: "fill", Observation: o.ID, Value: "Ada",
		Target: &messages.TargetRef{By: messages.ByLabel, Name: "Name"}}
	wantCode(t, w.act(t, fill), "")
	// The fill changed the tree (the field shows its value): a semantic
	// target on the same observation is refused, with fresh evidence.
	r := w.act(t, &messages.ActInput{Action: "click", Observation: o.ID,
		Target: &messages.TargetRef{By: messages.ByRole, Role: "button", Name: "Send"}})
	wantCode(t, r, messages.CodeStaleRef)
	o = r.Error.Observation
	if o == nil {
		t.Fatal("no evidence with the refusal")
	}
	r = w.act(t, &messages.ActInput{Action: "click", Observation: o.ID,
		Target: &messages.TargetRef{By: messages.ByRole, Role: "button", Name: "No such button"}})
	wantCode(t, r, messages.CodeStaleRef)
	o = r.Error.Observation
	wantCode(t, w.act(t, &messages.ActInput{Action: "click", Observation: o.ID,
		Target: &messages.TargetRef{By: messages.ByRole, Role: "button", Name: "Send"}}), "")
	if c := w.drv.Stats(); c.Fill != 1 || c.Click != 1 || c.Submissions != 1 {
		t.Fatalf("inputs = %+v; want the fill and the one click that submitted", c)
	}
}

func TestWaitForTakesARefOfTheLatestObservation(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	o := observeIn(t, w)
	wantCode(t, w.act(t, &messages.ActInput{Action: "wait_for", Wait: &messages.WaitInput{Ref: refIn(t, o, "link", "")}}), "")
	r := w.act(t, &messages.ActInput{Action: "wait_for", Wait: &messages.WaitInput{Ref: "e999999"}})
	wantCode(t, r, messages.CodeStaleRef)
}

// The pause rules, at the session: three failed observations in a row,
// input that may have half happened, and a tab that went away.
func TestPauseRules(t *testing.T) {
	for name, c := range map[string]struct {
		faults sim.Faults
		acts   int
		reason string
		last   string // what the failure that paused the session says
	}{
		"three observe failures": {sim.Faults{ObserveFail: 1}, 3, "observation failed three times", "The page did not answer a third observation in a row, so the session is now paused"},
		"input half happened":    {sim.Faults{PartialInput: 1}, 1, "half happened", "The session is now paused until the owner resumes access."},
		"tab gone":               {sim.Faults{TabGone: 1}, 1, "is gone", "The session is now paused until the owner resumes access."},
	} {
		t.Run(name, func(t *testing.T) {
			w := start(t, sim.Config{}, nil)
			wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/form/1"}), "")
			o := observeIn(t, w)
			w.drv.SetFaults(c.faults)
			in := &messages.ActInput{Action: "observe"}
			if c.faults.PartialInput > 0 {
				in = &messages.ActInput{Action: "fill", Observation: o.ID, Value: "abcdef",
					Target: &messages.TargetRef{Ref: refIn(t, o, "textbox", "")}}
			}
			var r *messages.ToolResult
			for range c.acts {
				if r = w.act(t, in); r.Error == nil {
					t.Fatalf("%s succeeded", in.Action)
				}
			}
			if !strings.Contains(r.Error.Message, c.last) || strings.Contains(r.Error.Message, "wait a moment") {
				t.Fatalf("the failure that paused the session says %q; want %q and no advice to retry", r.Error.Message, c.last)
			}
			w.drv.SetFaults(sim.Faults{})
			r = w.act(t, &messages.ActInput{Action: "observe"})
			wantCode(t, r, messages.CodePaused)
			if !strings.Contains(r.Error.Message, c.reason) || !strings.Contains(r.Error.Message, "`buddi resume c1`") {
				t.Fatalf("the paused refusal says %q", r.Error.Message)
			}
		})
	}
}

// Rule 5: a refusal names the way back on the surface that answers.
func TestTheWayBackIsNamedOnTheSurfaceThatAnswers(t *testing.T) {
	w := start(t, sim.Config{Faults: sim.Faults{ObserveFail: 1}}, nil)
	for range 3 {
		w.act(t, &messages.ActInput{Action: "observe"})
	}
	for surface, want := range map[messages.Surface]string{
		messages.SurfaceCLI:       "`buddi resume c1`",
		messages.SurfaceDashboard: "Resume access on this conversation's Browser tab",
		messages.SurfaceTelegram:  "/browser resume",
	} {
		r := w.actOn(t, surface, &messages.ActInput{Action: "observe"})
		wantCode(t, r, messages.CodePaused)
		if !strings.Contains(r.Error.Message, want) {
			t.Errorf("on %q the refusal says %q; want %q", surface, r.Error.Message, want)
		}
	}
}

func TestTheAgentsCloseEndsTheSessionAndClosesItsTabs(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	r := w.act(t, &messages.ActInput{Action: "close"})
	if c, ok := r.Result.(*messages.Closed); !ok || !c.Closed {
		t.Fatalf("close answered %#v", r.Result)
	}
	for msg := range w.ctrl.Got {
		if e, ok := msg.(*messages.SessionEnded); ok {
			if e.Code != messages.CodeReleased {
				t.Fatalf("the controller heard %+v", e)
			}
			break
		}
	}
	if w.drv.Conversation("c1") != nil {
		t.Fatal("the agent's close was answered before its tabs closed")
	}
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), messages.CodeNoTask)
}

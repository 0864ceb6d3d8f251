package audit_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/audit"
)

// answering is the actors' client at the seam audit wraps: it answers
// every call at once, as the actors would.
type answering struct{ err *messages.Error }

func (a answering) Tool(context.Context, *messages.ToolCall) (*messages.ToolResult, *messages.Error) {
	if a.err != nil {
		return messages.FailWith(a.err), nil
	}
	return &messages.ToolResult{Result: &messages.Outcome{Outcome: "done", URL: "https://shop.example/cart?session=Tok3nInQuery#frag"}}, nil
}

func (a answering) Owner(context.Context, any) *messages.OwnerReply {
	if a.err != nil {
		return messages.OwnerFail(a.err)
	}
	return &messages.OwnerReply{}
}

func (answering) Identify(context.Context, string) (string, *messages.Error) { return "ada", nil }
func (answering) Health(context.Context) (*messages.Health, *messages.Error) { return nil, nil }
func (answering) Subscribe(events.Filter) *events.Subscription               { return nil }

type names struct{}

func (names) AgentName(hash string) string {
	if hash == "h-ada" {
		return "ada"
	}
	return ""
}
func (names) AgentOf(conv string) string { return "owner-of-" + conv }

func trailOf(t *testing.T, run func(a *audit.Actors)) (messages.AuditList, []byte) {
	t.Helper()
	dir := t.TempDir()
	l, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run(audit.Wrap(answering{}, l, names{}))
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, audit.Dir, audit.File))
	if err != nil {
		t.Fatal(err)
	}
	list, err := audit.Read(dir, messages.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return list, raw
}

// What is typed, pressed or chosen, a URL's query and fragment, a pairing
// code and a device's token never reach the file; that they happened does.
func TestValuesNeverReachTheTrail(t *testing.T) {
	secrets := []string{"Hunter2Typed", "Tok3nInQuery", "frag", "Zq7Kp9", "482913", "tokenhash-of-cookie", "PressedQ", "OptionChosen"}
	ctx := context.Background()
	list, raw := trailOf(t, func(a *audit.Actors) {
		call := func(in *messages.ActInput) {
			_, _ = a.Tool(ctx, &messages.ToolCall{TokenHash: "h-ada", Conversation: "c1", Tool: messages.ToolAct, Act: in})
		}
		call(&messages.ActInput{Action: "fill", Target: &messages.TargetRef{Ref: "e7"}, Value: "Hunter2Typed"})
		call(&messages.ActInput{Action: "type", Target: &messages.TargetRef{Ref: "e8"}, Value: "Hunter2Typed"})
		call(&messages.ActInput{Action: "press", Key: "PressedQ"})
		call(&messages.ActInput{Action: "select", Target: &messages.TargetRef{Ref: "e9"}, Values: []string{"OptionChosen"}})
		call(&messages.ActInput{Action: "navigate", URL: "https://login.example/verify?otp=Zq7Kp9"})
		call(&messages.ActInput{Action: "script", Steps: []*messages.ActInput{{Action: "fill", Value: "Hunter2Typed"}, {Action: "press", Key: "PressedQ"}}})
		a.Owner(ctx, &messages.PairExtension{Code: "482913"})
		a.Owner(ctx, &messages.PairTelegram{User: 1, Chat: 2, Name: "Ada"})
		a.Owner(ctx, &messages.AddDevice{Device: messages.DeviceView{ID: "dev1", Label: "Firefox on Linux"}, TokenHash: "tokenhash-of-cookie"})
	})
	for _, s := range secrets {
		if bytes.Contains(raw, []byte(s)) {
			t.Errorf("the trail holds %q:\n%s", s, raw)
		}
	}
	want := []string{"fill", "type", "press", "select", "navigate", "script", "pair_extension", "pair_telegram", "sign_in"}
	if len(list) != len(want) {
		t.Fatalf("the trail has %d lines, want %d:\n%s", len(list), len(want), raw)
	}
	for i, r := range list {
		if r.Action != want[i] {
			t.Errorf("line %d is %s, want %s", i, r.Action, want[i])
		}
	}
	if r := list[0]; r.Agent != "ada" || r.Conversation != "c1" || r.Target != "e7" || r.Code != messages.AuditOK || r.URL != "https://shop.example/cart" {
		t.Errorf("the fill's line is %+v, want agent ada, c1, e7, ok and the page without its query", r)
	}
	if r := list[5]; len(r.Steps) != 2 || r.Steps[0] != "fill" || r.Steps[1] != "press" {
		t.Errorf("the script's line names steps %v, want fill and press", r.Steps)
	}
}

// Reads are not kept; controls are, with the code their answer carried
// and the agent of the conversation they were for.
func TestControlsAreKeptAndReadsAreNot(t *testing.T) {
	dir := t.TempDir()
	l, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ok := audit.Wrap(answering{}, l, names{})
	refused := audit.Wrap(answering{err: &messages.Error{Code: messages.CodeNotFound, Message: "No such session."}}, l, names{})
	for _, m := range []any{&messages.ListTasks{}, &messages.ListSessions{}, &messages.GetSettings{}, &messages.FindDevice{TokenHash: "x"}} {
		ok.Owner(ctx, m)
	}
	ok.Owner(ctx, &messages.TakeOver{Conversation: "c1"})
	refused.Owner(ctx, &messages.Release{Conversation: "c2"})
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	list, err := audit.Read(dir, messages.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("the trail has %d lines, want the take-over and the release only: %+v", len(list), list)
	}
	if r := list[0]; r.Action != "take_over" || r.Agent != "owner-of-c1" || r.Code != messages.AuditOK || r.Kind != messages.AuditControl {
		t.Errorf("the take-over's line is %+v", r)
	}
	if r := list[1]; r.Action != "release" || r.Code != messages.CodeNotFound {
		t.Errorf("the refused release's line is %+v, want its code not_found", r)
	}
}

// A navigation's address is written the same whether the trail saw it
// before or not, and among more addresses than it keeps ready.
func TestAPageIsWrittenTheSameEachTime(t *testing.T) {
	want := map[string]string{
		"https://shop.example/cart":            "https://shop.example/cart",
		"HTTPS://Shop.example/a%41/b c":        "https://Shop.example/aA/b%20c",
		"https://user:pw@shop.example/x?y=1#z": "https://shop.example/x",
		"not a url/with?query":                 "not a url/with",
		"https://shop.example/x#only":          "https://shop.example/x",
	}
	for i := range 200 {
		want[fmt.Sprintf("https://shop.example/p/%d", i)] = fmt.Sprintf("https://shop.example/p/%d", i)
	}
	for round := range 3 {
		for in, out := range want {
			r := audit.Act("ada", &messages.ToolCall{Conversation: "c1", Tool: messages.ToolAct,
				Act: &messages.ActInput{Action: "navigate", URL: in}}, nil, nil)
			if r.URL != out {
				t.Errorf("round %d: %q is written as %q, want %q", round, in, r.URL, out)
			}
		}
	}
}

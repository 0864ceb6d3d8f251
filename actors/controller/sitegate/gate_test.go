package sitegate_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller/sitegate"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// rules are the real URL rules, as the daemon hands them to the gate.
type rules struct{ p *egress.Policy }

func (r rules) CheckURL(raw, source string) error { return r.p.CheckURL(raw, egress.Source(source)) }
func (r rules) Preview(raw string) bool           { return r.p.Preview(raw) }

const preview = "http://127.0.0.1:5173"

func newRules(t *testing.T, cfg egress.Config) sitegate.Rules {
	t.Helper()
	cfg.PreviewOrigins = append(cfg.PreviewOrigins, preview)
	p, err := egress.NewPolicy(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rules{p}
}

func nav(url, source string) *messages.ActInput {
	return &messages.ActInput{Action: "navigate", URL: url, URLSource: source}
}

func code(e *messages.Error) messages.Code {
	if e == nil {
		return ""
	}
	return e.Code
}

func gate(t *testing.T, ask bool, cfg egress.Config) *sitegate.Gate {
	return sitegate.New(ask, newRules(t, cfg), nil, nil, func() time.Time { return time.Unix(1, 0) })
}

func TestAskOnceAlwaysReject(t *testing.T) {
	g := gate(t, true, egress.Config{})
	in := nav("https://www.example.com/a", "")
	v := g.Check("c1", "ada", in)
	if code(v.Refusal) != messages.CodeApprovalRequired || v.Asked == nil || v.Asked.Site != "example.com" {
		t.Fatalf("first ask: %+v", v)
	}
	if list := g.Pending(); len(list) != 1 {
		t.Fatalf("pending = %+v", list)
	}
	ans, e := g.Decide(&messages.DecideSite{Conversation: "c1", Site: "example.com", Decision: messages.DecideOnce})
	if e != nil || !ans.Once {
		t.Fatalf("decide once: %+v %v", ans, e)
	}
	if v := g.Check("c1", "ada", in); v.Refusal != nil {
		t.Fatalf("after once, c1: %v", v.Refusal)
	}
	if v := g.Check("c2", "ada", in); code(v.Refusal) != messages.CodeApprovalRequired {
		t.Fatalf("once is for c1 only; c2 got %v", v.Refusal)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c2", Site: "example.com", Decision: messages.DecideReject}); e != nil {
		t.Fatal(e)
	}
	if v := g.Check("c2", "ada", in); code(v.Refusal) != messages.CodeNotApproved {
		t.Fatalf("after reject: %v", v.Refusal)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c2", Site: "example.com", Decision: messages.DecideOnce}); code(e) != messages.CodeNoPendingApproval {
		t.Fatalf("deciding with nothing pending: %v", e)
	}
}

// Rule 1: the URL rules refuse first, with their own code; only a URL they
// would let the browser open is ever put to the owner, and a page link
// they refuse is not answered unapproved_site.
func TestURLRulesRefuseBeforeSiteApproval(t *testing.T) {
	cases := map[string]struct {
		cfg    egress.Config
		url    string
		source string
		want   messages.Code
	}{
		"bank, agent's own":      {url: "https://www.chase.com/", want: messages.CodeNeverAutomate},
		"bank, page link":        {url: "https://www.chase.com/login", source: messages.URLFromPage, want: messages.CodeNeverAutomate},
		"private address":        {url: "http://10.0.0.7/admin", want: messages.CodePrivate},
		"private, page link":     {url: "http://192.168.1.1/", source: messages.URLFromPage, want: messages.CodePrivate},
		"outside the host list":  {cfg: egress.Config{Hosts: []string{"example.com"}}, url: "https://example.org/", want: messages.CodeHostNotListed},
		"host list, page link":   {cfg: egress.Config{Hosts: []string{"example.com"}}, url: "https://example.org/", source: messages.URLFromPage, want: messages.CodeHostNotListed},
		"air-gap":                {cfg: egress.Config{AirGap: true}, url: "https://example.com/", want: messages.CodeAirGap},
		"air-gap, page link":     {cfg: egress.Config{AirGap: true}, url: "https://example.com/", source: messages.URLFromPage, want: messages.CodeAirGap},
		"scheme":                 {url: "file:///etc/passwd", want: messages.CodeScheme},
		"port":                   {url: "https://example.com:8443/", want: messages.CodePort},
		"bank in a script":       {url: "https://chase.com/", want: messages.CodeNeverAutomate},
		"air-gap beats the bank": {cfg: egress.Config{AirGap: true}, url: "https://example.net/", want: messages.CodeAirGap},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			g := gate(t, true, c.cfg)
			in := nav(c.url, c.source)
			if name == "bank in a script" {
				in = &messages.ActInput{Action: "script", Steps: []*messages.ActInput{nav("https://example.com/ok", ""), nav(c.url, "")}}
			}
			v := g.Check("c1", "ada", in)
			if code(v.Refusal) != c.want || v.Asked != nil || len(g.Pending()) != 0 {
				t.Fatalf("got %v, asked %+v, pending %d; want %s and nothing put to the owner", v.Refusal, v.Asked, len(g.Pending()), c.want)
			}
			if v.URL != c.url {
				t.Fatalf("the refused URL is %q, want %q", v.URL, c.url)
			}
		})
	}
}

// Rule 2: a preview origin is never gated: not by asking, not as a page
// link, not under air-gap, not with a query, not after a rejection.
func TestPreviewOriginsAreNeverGated(t *testing.T) {
	for _, cfg := range []egress.Config{{}, {AirGap: true}, {Hosts: []string{"example.com"}}} {
		g := gate(t, true, cfg)
		for _, in := range []*messages.ActInput{
			nav(preview+"/", ""), nav(preview+"/search?q=anything", ""),
			nav(preview+"/from-a-page?x=1", messages.URLFromPage),
		} {
			if v := g.Check("c1", "ada", in); v.Refusal != nil || v.Asked != nil {
				t.Fatalf("air-gap %v, hosts %v: %s (%s) was gated: %+v", cfg.AirGap, cfg.Hosts, in.URL, in.URLSource, v)
			}
		}
	}
	if len(gate(t, true, egress.Config{}).Pending()) != 0 {
		t.Fatal("a preview navigation filed a request")
	}
}

// Rule 3: a query string the owner did not see asks again, also when the
// approval had none; as a page link it is refused.
func TestQueryStringsAskAgain(t *testing.T) {
	g := gate(t, true, egress.Config{})
	if v := g.Check("c1", "ada", nav("https://example.com/docs", "")); code(v.Refusal) != messages.CodeApprovalRequired {
		t.Fatalf("first: %v", v.Refusal)
	}
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c1", Site: "example.com", Decision: messages.DecideAlways}); e != nil {
		t.Fatal(e)
	}
	if v := g.Check("c1", "ada", nav("https://www.example.com/other", "")); v.Refusal != nil {
		t.Fatalf("the approved site without a query: %v", v.Refusal)
	}
	v := g.Check("c1", "ada", nav("https://example.com/docs?token=abc", ""))
	if code(v.Refusal) != messages.CodeApprovalRequired || v.Asked == nil || v.Asked.URL != "https://example.com/docs?token=abc" {
		t.Fatalf("a query the owner never saw: %+v", v)
	}
	if v := g.Check("c2", "ada", nav("https://example.com/?q=1", messages.URLFromPage)); code(v.Refusal) != messages.CodeUnapproved {
		t.Fatalf("a page link with a query: %v", v.Refusal)
	}
}

func TestRejectionsHoldForEveryConversation(t *testing.T) {
	g := gate(t, true, egress.Config{})
	g.Check("c1", "ada", nav("https://example.com/", ""))
	g.Check("c2", "bob", nav("https://example.com/x", ""))
	if _, e := g.Decide(&messages.DecideSite{Conversation: "c1", Site: "example.com", Decision: messages.DecideReject}); e != nil {
		t.Fatal(e)
	}
	if n := len(g.Pending()); n != 0 {
		t.Fatalf("%d requests about the rejected site still wait", n)
	}
	for _, conv := range []string{"c2", "c3"} {
		if v := g.Check(conv, "bob", nav("https://example.com/", "")); code(v.Refusal) != messages.CodeNotApproved || v.Asked != nil {
			t.Fatalf("%s after a rejection in c1: %+v", conv, v)
		}
	}
}

func TestListAndRevoke(t *testing.T) {
	g := gate(t, true, egress.Config{})
	for _, c := range []struct{ conv, url, decision string }{
		{"c1", "https://example.com/", messages.DecideAlways},
		{"c2", "https://example.org/", messages.DecideOnce},
		{"c3", "https://example.net/", messages.DecideReject},
		{"c4", "https://example.com/?q=1", messages.DecideOnce},
	} {
		v := g.Check(c.conv, "ada", nav(c.url, ""))
		if _, e := g.Decide(&messages.DecideSite{Conversation: c.conv, Site: v.Asked.Site, Decision: c.decision}); e != nil {
			t.Fatal(e)
		}
	}
	list := g.List()
	want := []string{"example.com always ", "example.com once c4", "example.net rejected ", "example.org once c2"}
	if len(list) != len(want) {
		t.Fatalf("list = %+v", list)
	}
	for i, gr := range list {
		if got := gr.Site + " " + gr.Scope + " " + gr.Conversation; got != want[i] {
			t.Errorf("list[%d] = %q, want %q", i, got, want[i])
		}
	}
	r := g.Revoke("example.com")
	if r.Removed != 2 || !r.Always || len(r.Conversations) != 1 || r.Conversations[0] != "c4" {
		t.Fatalf("revoke example.com = %+v", r)
	}
	if v := g.Check("c1", "ada", nav("https://example.com/", "")); code(v.Refusal) != messages.CodeApprovalRequired {
		t.Fatalf("after the revocation: %v", v.Refusal)
	}
	if r := g.Revoke("example.net"); r.Removed != 1 {
		t.Fatalf("revoking a rejection: %+v", r)
	}
	if v := g.Check("c3", "ada", nav("https://example.net/", "")); code(v.Refusal) != messages.CodeApprovalRequired {
		t.Fatalf("after lifting the rejection: %v", v.Refusal)
	}
}

func TestPageLinksNeedAnApprovalEvenWhenNotAsking(t *testing.T) {
	g := gate(t, false, egress.Config{})
	if v := g.Check("c1", "ada", nav("https://example.com/", "")); v.Refusal != nil {
		t.Fatalf("the agent's own navigate: %v", v.Refusal)
	}
	if v := g.Check("c1", "ada", nav("https://example.com/", messages.URLFromPage)); code(v.Refusal) != messages.CodeUnapproved || v.Asked != nil {
		t.Fatalf("a page link: %+v", v)
	}
}

func TestPendingRequestsAreBoundedAndForgotten(t *testing.T) {
	g := gate(t, true, egress.Config{})
	for i := range sitegate.MaxPending {
		if v := g.Check("c1", "ada", nav("https://site-"+string(rune('a'+i))+".com/", "")); code(v.Refusal) != messages.CodeApprovalRequired {
			t.Fatalf("request %d: %v", i, v.Refusal)
		}
	}
	if v := g.Check("c1", "ada", nav("https://one-more.com/", "")); code(v.Refusal) != messages.CodeTooManyRequests {
		t.Fatalf("past the bound: %v", v.Refusal)
	}
	g.Forget("c1")
	if len(g.Pending()) != 0 {
		t.Fatal("a forgotten conversation's requests still wait")
	}
}

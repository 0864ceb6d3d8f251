package daemon_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/events"
)

// echoPage sends the code with GET, so the site's next address carries it
// in its query, as many sites' verify pages do.
const echoPage = `<!doctype html><title>Verify</title><h1>Check your email</h1>
<form method="get" action="/verify"><label>Verification code <input name="code" autocomplete="one-time-code" inputmode="numeric"></label>
<button type="submit">Verify</button></form>`

// A long one-time code (8 and 12 digits) an agent types, which the site
// echoes into the address of the page it shows next, is masked in that
// address everywhere buddi keeps or shows it: the agent's answers, the
// events (steps, Telegram captions, the dashboard), the dashboard's views
// of sessions, conversations and the timeline, the audit trail, the store
// and the log.
func TestOneTimeCodeEchoedInTheAddressIsMasked(t *testing.T) {
	codes := map[string]string{"c8": "40917263", "c12": "582039174628"}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/verify" {
			fmt.Fprint(w, `<!doctype html><title>Verified</title><h1>Verified</h1>`)
			return
		}
		fmt.Fprint(w, echoPage)
	}))
	t.Cleanup(site.Close)
	d, logs := loggedDaemon(t, site.URL)
	sub := d.Events(t, events.Filter{})
	tok := d.AddAgent(t, "ada", true)
	var shown []string
	for conv, code := range codes {
		d.Task(t, "ada", conv, 20)
		if r := d.Act(t, tok, conv, map[string]any{"action": "navigate", "url": site.URL + "/"}); !r.OK {
			t.Fatalf("navigate: %s: %s", r.Code(), r.Error.Message)
		}
		obs := d.Observe(t, tok, conv)
		fill := d.Act(t, tok, conv, map[string]any{"action": "fill", "observation": daemontest.ID(obs),
			"target": map[string]any{"ref": daemontest.Ref(t, obs, "textbox", "Verification code")}, "value": code})
		if !fill.OK {
			t.Fatalf("fill the %d-digit code: %s: %s", len(code), fill.Code(), fill.Error.Message)
		}
		click := d.Act(t, tok, conv, map[string]any{"action": "click", "observation": daemontest.ID(obs),
			"target": map[string]any{"ref": daemontest.Ref(t, obs, "button", "Verify")}})
		if !click.OK {
			t.Fatalf("click Verify: %s: %s", click.Code(), click.Error.Message)
		}
		after := d.Act(t, tok, conv, map[string]any{"action": "observe"})
		if !after.OK {
			t.Fatalf("observe: %s: %s", after.Code(), after.Error.Message)
		}
		if !strings.Contains(string(after.Result), "/verify?code="+egress.TypedCodeMask) {
			t.Fatalf("the observation after the %d-digit code does not show the address, masked:\n%s", len(code), after.Result)
		}
		shown = append(shown, string(fill.Result), string(click.Result), string(after.Result))
	}
	for _, path := range []string{"/api/browser/sessions", "/api/conversations", "/api/timeline?conversation=c8", "/api/timeline?conversation=c12", "/api/audit"} {
		shown = append(shown, string(d.Must(t, "GET", path, nil).Result))
	}
	published := asJSON(t, sub.Drain())
	if !strings.Contains(published, "code="+egress.TypedCodeMask) {
		t.Fatalf("no event shows the verify page's address, masked:\n%s", published)
	}
	d.Stop(t)

	kept := map[string]string{
		"the answers and the dashboard's views": strings.Join(shown, "\n"),
		"the events published":                  published,
		"the log":                               logs.String(),
		"the store":                             storeDump(t, d.Dir),
		"the audit trail":                       string(rawTrail(t, d.Dir)),
	}
	for where, text := range kept {
		for _, code := range codes {
			if strings.Contains(text, code) {
				i := strings.Index(text, code)
				t.Errorf("the %d-digit code typed is in %s: …%s…", len(code), where, text[max(0, i-300):min(len(text), i+60)])
			}
		}
	}
}

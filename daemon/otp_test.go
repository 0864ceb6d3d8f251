package daemon_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// otpPage asks for the code a site mailed, and a card's security code.
const otpPage = `<!doctype html><title>Verify</title><h1>Check your email</h1>
<form><label>Verification code <input name="otp" autocomplete="one-time-code" inputmode="numeric"></label>
<label>Security code <input name="csc" autocomplete="cc-csc"></label><button type="button">Verify</button></form>`

// TestOneTimeCodeTypedNeverKept: an agent types a mailed code into a
// one-time code field in real Chromium, and the code is in none of what
// buddi keeps or shows: the store, the events every surface is made from
// (steps, Telegram captions, the dashboard), the agent's next read, the log.
// A card's security code on the same page stays refused.
func TestOneTimeCodeTypedNeverKept(t *testing.T) {
	const code = "492817"
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, otpPage)
	}))
	t.Cleanup(site.Close)
	d, logs := loggedDaemon(t, site.URL)
	sub := d.Events(t, events.Filter{})
	tok := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 20)
	if r := d.Act(t, tok, "c1", map[string]any{"action": "navigate", "url": site.URL + "/"}); !r.OK {
		t.Fatalf("navigate: %s: %s", r.Code(), r.Error.Message)
	}
	obs := d.Observe(t, tok, "c1")
	fill := func(name, value string) *daemontest.Reply {
		return d.Act(t, tok, "c1", map[string]any{"action": "fill", "observation": daemontest.ID(obs),
			"target": map[string]any{"ref": daemontest.Ref(t, obs, "textbox", name)}, "value": value})
	}
	filled := fill("Verification code", code)
	if !filled.OK {
		t.Fatalf("fill the one-time code: %s: %s", filled.Code(), filled.Error.Message)
	}
	daemontest.WantCode(t, fill("Security code", "737"), string(messages.CodeCredential))
	shown := []string{string(filled.Result)}
	for _, read := range []map[string]any{{"action": "observe", "fullPage": true}, {"action": "dom"}} {
		r := d.Act(t, tok, "c1", read)
		if !r.OK {
			t.Fatalf("%v: %s: %s", read, r.Code(), r.Error.Message)
		}
		shown = append(shown, string(r.Result))
	}
	if !strings.Contains(shown[1], "Verification code") {
		t.Fatalf("the read after the fill does not show the field:\n%s", shown[1])
	}
	// Every event, as the surfaces get it (JSON, not Go's %+v, which
	// prints a pointer's address and not what it points at).
	var seen []messages.Event
	daemontest.Await(t, sub, "the dom read's step", func(e messages.Event) bool {
		seen = append(seen, e)
		s, ok := e.(*messages.StepTaken)
		return ok && s.Action == "dom"
	})
	published := asJSON(t, append(seen, sub.Drain()...))
	if !strings.Contains(published, "Verification code") {
		t.Fatalf("no event published names the field the code was typed into:\n%s", published)
	}
	d.Stop(t)

	kept := map[string]string{
		"the fill's answer and the reads after": strings.Join(shown, "\n"),
		"the events published":                  published,
		"the log":                               logs.String(),
		"the store":                             storeDump(t, d.Dir),
	}
	for where, text := range kept {
		if strings.Contains(text, code) {
			t.Errorf("the one-time code typed is in %s", where)
		}
	}
}

// loggedDaemon starts a daemon on the Playwright driver that may open
// origins, with its debug log kept in the buffer it returns (the tests of
// values that must never be kept read it).
func loggedDaemon(t *testing.T, origins ...string) (*daemontest.Daemon, *daemontest.Buffer) {
	t.Helper()
	logs := &daemontest.Buffer{}
	d := daemontest.Start(t, "", daemon.Options{
		Config: config.Config{Driver: "playwright", LogLevel: "debug", Egress: egress.Config{PreviewOrigins: origins}},
		Log:    slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	return d, logs
}

// asJSON is events as the surfaces get them, a JSON line each.
func asJSON(t *testing.T, events []messages.Event) string {
	t.Helper()
	var out strings.Builder
	for _, ev := range events {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	return out.String()
}

// storeDump is every key and value a stopped daemon's store holds.
func storeDump(t *testing.T, dir string) string {
	t.Helper()
	db, err := pebble.Open(ledger.Path(dir), &pebble.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	it, err := db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var b strings.Builder
	for it.First(); it.Valid(); it.Next() {
		b.Write(it.Key())
		b.WriteByte('=')
		b.Write(it.Value())
		b.WriteByte('\n')
	}
	if b.Len() == 0 {
		t.Fatal("the store is empty: nothing was read")
	}
	return b.String()
}

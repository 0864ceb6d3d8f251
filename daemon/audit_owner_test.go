package daemon_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// linesOf are the trail's control lines of action, in order.
func linesOf(list messages.AuditList, action string) []messages.AuditRecord {
	var out []messages.AuditRecord
	for _, r := range list {
		if r.Kind == messages.AuditControl && r.Action == action {
			out = append(out, r)
		}
	}
	return out
}

// Adding, changing and removing an owner secret through the owner API
// each leave a control line naming the secret and its origins; neither
// value reaches the trail's files or the daemon's log, even at debug.
func TestOwnerSecretChangesAreAuditedWithoutTheirValues(t *testing.T) {
	const first, second = "first-value-7Qz9!kept-out", "second-value-Xw3#kept-out"
	logs := &daemontest.Buffer{}
	d := daemontest.Start(t, "", daemon.Options{Config: config.Config{LogLevel: "debug"},
		Log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	d.Must(t, "POST", "/api/secrets", messages.OwnerBody{Name: "github", Origins: []string{"https://github.com"}, Value: first})
	d.Must(t, "POST", "/api/secrets", messages.OwnerBody{Name: "github", Origins: []string{"https://github.com", "https://gist.github.com"}, Value: second})
	d.Must(t, "POST", "/api/secrets/remove", messages.OwnerBody{Name: "github"})
	wantCode(t, call(t, d, "POST", "/api/secrets/remove", messages.OwnerBody{Name: "github"}), string(messages.CodeUnknownSecret))
	d.Stop(t)

	list := trailOf(t, d.Dir)
	want := map[string][]struct {
		code   messages.Code
		detail string
	}{
		"add_secret":    {{messages.AuditOK, "owner API: github for https://github.com"}},
		"change_secret": {{messages.AuditOK, "owner API: github for https://github.com https://gist.github.com"}},
		"remove_secret": {{messages.AuditOK, "owner API: github"}, {messages.CodeUnknownSecret, "owner API: github"}},
	}
	for action, lines := range want {
		got := linesOf(list, action)
		if len(got) != len(lines) {
			t.Fatalf("%d %s lines, want %d:\n%s", len(got), action, len(lines), rawTrail(t, d.Dir))
		}
		for i, w := range lines {
			if got[i].Code != w.code || got[i].Detail != w.detail || got[i].At.IsZero() {
				t.Errorf("%s line %d is %+v, want code %s and detail %q with a time", action, i, got[i], w.code, w.detail)
			}
		}
	}
	for where, b := range map[string][]byte{"the trail": rawTrail(t, d.Dir), "the log": []byte(logs.String())} {
		for _, v := range []string{first, second} {
			if bytes.Contains(b, []byte(v)) {
				t.Errorf("%s holds the secret value %q", where, v)
			}
		}
	}
}

// Failed sign-ins on the dashboard (a spent sign-in link, a wrong owner
// token) each leave a line with their code and the client's address while
// the limiter counts them; of a flood past the source's tries only the
// first refusal is kept, so the flood does not grow the trail.
func TestFailedSignInsAreAuditedOncePerRefusalRun(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	const flood = 40
	for range flood {
		if spendLink(t, d, "spent-or-made-up").OK {
			t.Fatal("a made-up sign-in link was let in")
		}
		r, err := d.Do("GET", "/api/tasks", "not-the-owner-token", nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.OK {
			t.Fatal("a wrong owner token was let in")
		}
	}
	d.Stop(t)

	list := trailOf(t, d.Dir)
	// The limiter gives a source 5 tries; none comes back in this test's
	// time unless it runs for a minute, which would add one line per try.
	for action, code := range map[string]messages.Code{"sign_in_failed": messages.CodeSignInExpired, "owner_token_failed": messages.CodeUnauthorized} {
		got := linesOf(list, action)
		var failed, refused int
		for _, r := range got {
			if !strings.Contains(r.Detail, "dashboard from 127.0.0.1") {
				t.Errorf("the line %+v does not name the surface and the client's address", r)
			}
			switch r.Code {
			case code:
				failed++
			case messages.CodeTooManyAttempts:
				refused++
			default:
				t.Errorf("the line %+v has code %s, want %s or %s", r, r.Code, code, messages.CodeTooManyAttempts)
			}
		}
		if failed < 5 || refused < 1 || len(got) >= flood/2 {
			t.Fatalf("%d attempts left %d %s lines (%d counted, %d refusals), want the 5 counted and one refusal per run:\n%s",
				flood, len(got), action, failed, refused, rawTrail(t, d.Dir))
		}
	}
}

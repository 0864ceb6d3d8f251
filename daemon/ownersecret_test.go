package daemon_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// The owner's sign-in for site A, and nowhere else: the user name goes
// into a plain text field, which no credential rule masks.
const (
	ownerPassword = "Tr0ub4dor-horse-staple-93"
	ownerUser     = "ada.owner.4417@example.org"
)

// signInPage is a sign-in form that posts its fields to /login.
const signInPage = `<!doctype html><title>Sign in</title><h1>Sign in</h1>
<form method="post" action="/login"><label>User <input name="user"></label>
<label>Password <input type="password" name="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form>`

// trapPage is another origin's password field that says on the page
// whether anything was typed into it (synchronously, in the input event).
const trapPage = `<!doctype html><title>Other site</title><h1>Other site</h1>
<label>Password <input type="password" name="password" oninput="document.getElementById('state').textContent='typed into'"></label>
<p id="state">untouched</p>`

// ownerSites are site A (the secret's) and site B (another origin), the
// passwords A received, and a page of A framing B.
type ownerSites struct {
	a, b *httptest.Server
	mu   sync.Mutex
	got  []string
}

func startOwnerSites(t *testing.T) *ownerSites {
	s := &ownerSites{}
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, body)
		}
	}
	s.b = httptest.NewServer(page(trapPage))
	t.Cleanup(s.b.Close)
	mux := http.NewServeMux()
	mux.Handle("GET /{$}", page(signInPage))
	mux.Handle("GET /framed", page(`<!doctype html><title>Framed</title><h1>Framed</h1><iframe src="`+s.b.URL+`/" width="600" height="300"></iframe>`))
	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.got = append(s.got, r.FormValue("user"), r.FormValue("password"))
		s.mu.Unlock()
		page(`<!doctype html><title>Welcome</title><h1>Signed in</h1>`)(w, r)
	})
	s.a = httptest.NewServer(mux)
	t.Cleanup(s.a.Close)
	return s
}

func (s *ownerSites) received() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.got...)
}

// TestOwnerSecretFilledOnlyWhereItBelongs: in real Chromium, secret_list
// gives the owner's secret by name and origins without its value;
// secret_fill types it into site A's password field (A's server receives
// it); a fill into another origin's field is refused with secret_origin and
// nothing is typed, whether the agent went to another origin after the
// list or the field is in a frame of another origin inside A's page; and
// the value is in none of what buddi keeps or shows afterwards.
func TestOwnerSecretFilledOnlyWhereItBelongs(t *testing.T) {
	sites := startOwnerSites(t)
	d, logs := loggedDaemon(t, sites.a.URL, sites.b.URL)
	vault := secret.NewVault(d.Dir)
	for name, value := range map[string]string{"site-a": ownerPassword, "site-a-user": ownerUser} {
		if err := vault.Add(secret.Owned{Name: name, Origins: []string{sites.a.URL}, Value: value}); err != nil {
			t.Fatal(err)
		}
	}
	sub := d.Events(t, events.Filter{})
	tok := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 40)
	var shown []string
	act := func(in map[string]any) *daemontest.Reply {
		t.Helper()
		r := d.Act(t, tok, "c1", in)
		raw, _ := json.Marshal(r)
		shown = append(shown, string(raw))
		return r
	}
	ok := func(r *daemontest.Reply, what string) {
		t.Helper()
		if !r.OK {
			t.Fatalf("%s: %s: %s", what, r.Code(), r.Error.Message)
		}
	}
	observe := func() map[string]any {
		t.Helper()
		obs := d.Observe(t, tok, "c1")
		raw, _ := json.Marshal(obs)
		shown = append(shown, string(raw))
		return obs
	}
	fillSecret := func(obs map[string]any, name, field string) *daemontest.Reply {
		t.Helper()
		return act(map[string]any{"action": "secret_fill", "observation": daemontest.ID(obs), "secret": name,
			"target": map[string]any{"ref": daemontest.Ref(t, obs, "textbox", field)}})
	}

	listed := act(map[string]any{"action": "secret_list"})
	ok(listed, "secret_list")
	var list messages.SecretList
	if err := json.Unmarshal(listed.Result, &list); err != nil {
		t.Fatal(err)
	}
	want, _ := secret.Origin(sites.a.URL)
	if len(list.Secrets) != 2 {
		t.Fatalf("secret_list gave %+v, want site-a and site-a-user", list.Secrets)
	}
	for _, s := range list.Secrets {
		if s.Name != "site-a" && s.Name != "site-a-user" || len(s.Origins) != 1 || s.Origins[0] != want {
			t.Fatalf("secret_list gave %+v, want site-a and site-a-user for %s", list.Secrets, want)
		}
	}

	refused := map[string]string{
		"another origin after the list": sites.b.URL + "/",
		"a frame of another origin":     sites.a.URL + "/framed",
	}
	for name, page := range refused {
		t.Run(name, func(t *testing.T) {
			ok(act(map[string]any{"action": "navigate", "url": page}), "navigate")
			obs := observe()
			daemontest.WantCode(t, fillSecret(obs, "site-a", "Password"), string(messages.CodeSecretOrigin))
			after := observe()
			if text, _ := after["text"].(string); !strings.Contains(text, "untouched") || strings.Contains(text, "typed into") {
				t.Errorf("the other origin's field was typed into, or is not shown:\n%s", text)
			}
		})
	}

	ok(act(map[string]any{"action": "navigate", "url": sites.a.URL + "/"}), "navigate to A")
	daemontest.WantCode(t, fillSecret(observe(), "no-such-secret", "Password"), string(messages.CodeUnknownSecret))
	ok(fillSecret(observe(), "site-a-user", "User"), "secret_fill of the user name on A")
	ok(fillSecret(observe(), "site-a", "Password"), "secret_fill of the password on A")
	obs := observe()
	ok(act(map[string]any{"action": "dom"}), "dom of the filled form")
	ok(act(map[string]any{"action": "click", "observation": daemontest.ID(obs),
		"target": map[string]any{"ref": daemontest.Ref(t, obs, "button", "Sign in")}}), "sign in")
	if got := sites.received(); len(got) != 2 || got[0] != ownerUser || got[1] != ownerPassword {
		t.Fatalf("site A received %q, want the owner's user name and password once", got)
	}
	ok(act(map[string]any{"action": "dom"}), "dom")
	daemontest.Await(t, sub, "the dom read's step", func(e messages.Event) bool {
		s, ok := e.(*messages.StepTaken)
		return ok && s.Action == "dom"
	})
	timeline := d.Must(t, "GET", "/api/timeline?conversation=c1", nil)
	published := fmt.Sprintf("%+v", sub.Drain())
	d.Stop(t)

	kept := map[string]string{
		"the answers the agent read": strings.Join(shown, "\n"),
		"the events published":       published,
		"the conversation's journal": string(timeline.Result),
		"the log":                    logs.String(),
		"the store":                  storeDump(t, d.Dir),
		"buddi's other files":        filesBut(t, d.Dir, secret.VaultFile, filepath.Join("browser", "profile")),
	}
	for where, text := range kept {
		for _, value := range []string{ownerPassword, ownerUser} {
			if strings.Contains(text, value) {
				t.Errorf("the owner's secret %s is in %s", value[:3]+"…", where)
			}
		}
	}
}

// filesBut is the text of every file under dir except the named file and
// folder (the vault itself, and the browser's own profile).
func filesBut(t *testing.T, dir, file, folder string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case e.IsDir() && rel == folder:
			return filepath.SkipDir
		case e.IsDir() || rel == file || !e.Type().IsRegular():
			return nil
		}
		raw, err := os.ReadFile(p)
		if err == nil {
			b.Write(raw)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

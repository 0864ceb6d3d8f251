package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// TestE2EEgressIsConfinedAtTheSocket serves a page on a preview origin that
// reaches for loopback in every way a page can; the other server must
// receive nothing, and the agent must get the reason for what it asked.
func TestE2EEgressIsConfinedAtTheSocket(t *testing.T) {
	tg := newTarget(t)
	other := tg.URL // http://127.0.0.1:<port>: loopback, not a preview origin
	mux := http.NewServeMux()
	// The page tells /settled once every way it reached out has ended (each
	// answered or failed): from then on nothing more can arrive.
	settled := make(chan struct{}, 1)
	mux.HandleFunc("/settled", func(w http.ResponseWriter, r *http.Request) { settled <- struct{}{} })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Hostile</title><h1>Hostile</h1>
<a href="file:///etc/passwd">Local file</a>
<a href="/hop1">Redirect chain</a>
<button onclick="window.open('%[1]s/popup')">Popup</button>
<script>
const ended = (el) => new Promise((done) => { el.onload = done; el.onerror = done; });
const tries = [];
for (const src of ['%[1]s/img.png', 'http://169.254.169.254/latest/meta-data/']) {
  const img = new Image(); tries.push(ended(img)); img.src = src;
}
// A frame's document request is held by buddi before it is sent and never
// answered when refused, so it fires no event to wait for: it cannot reach
// the other server later either.
const frame = document.createElement('iframe'); frame.src = '%[1]s/frame'; document.body.appendChild(frame);
tries.push(fetch('%[1]s/fetch').catch(function(){}));
tries.push(fetch('http://localhost:%[2]s/fetch-by-name').catch(function(){}));
tries.push(new Promise((done) => { try { const ws = new WebSocket('ws://127.0.0.1:%[2]s/ws'); ws.onerror = done; ws.onclose = done; } catch (e) { done(); } }));
Promise.all(tries).then(() => fetch('/settled'));
</script>`, other, portOf(other))
	})
	mux.HandleFunc("/hop1", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/hop2", http.StatusFound) })
	mux.HandleFunc("/hop2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, other+"/landed", http.StatusFound) })
	b, tok, page := openPreview(t, mux)
	ok(t, b.Act(t, tok, "c1", in{"action": "wait_for", "wait": in{"load": true}}))

	code(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": other + "/direct"}), "private_address")
	code(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": "file:///etc/passwd"}), "scheme_not_allowed")
	code(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": "http://0x7f.1:" + portOf(other) + "/"}), "private_address")

	obs := b.Observe(t, tok, "c1")
	r := b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": target1(daemontest.Ref(t, obs, "link", "Redirect chain"))})
	if r.OK && r.Map()["url"] == other+"/landed" {
		t.Fatalf("the redirect chain landed on loopback: %s", r.Result)
	}
	obs = b.Observe(t, tok, "c1")
	if obs["url"] != page+"/" && obs["url"] != page+"/hop2" && obs["url"] != page+"/hop1" {
		t.Fatalf("after the blocked redirect the page is %v", obs["url"])
	}
	obs = b.Observe(t, tok, "c1")
	_ = b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": target1(daemontest.Ref(t, obs, "link", "Local file"))})
	obs = b.Observe(t, tok, "c1")
	_ = b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": target1(daemontest.Ref(t, obs, "button", "Popup"))})
	obs = b.Observe(t, tok, "c1")
	tabs, _ := obs["tabs"].([]any) // listed only when there is more than the active one
	for _, tab := range tabs {
		if u, _ := tab.(map[string]any)["url"].(string); len(u) >= len(other) && u[:len(other)] == other {
			t.Fatalf("a popup to a blocked host stayed open: %v", obs["tabs"])
		}
	}
	select {
	case <-settled:
	case <-time.After(30 * time.Second):
		t.Fatal("the page never said that its requests had ended")
	}
	if n := tg.reached.Load(); n != 0 {
		t.Fatalf("the loopback server received %d requests; want none", n)
	}
}

func TestE2ECredentialFieldIsRefused(t *testing.T) {
	s := newSite(t)
	b, tok := setup(t, s, 80, "c1")
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/login"}))
	obs := b.Observe(t, tok, "c1")
	if text, _ := obs["text"].(string); contains(text, "hunter2") {
		t.Fatal("a password value appeared in the observation")
	}
	pw := daemontest.Ref(t, obs, "textbox", "Password")
	code(t, b.Act(t, tok, "c1", in{"action": "fill", "observation": daemontest.ID(obs), "target": target1(pw), "value": "hunter2"}), "credential_field")
	user := daemontest.Ref(t, obs, "textbox", "User")
	code(t, b.Act(t, tok, "c1", in{"action": "fill", "observation": daemontest.ID(obs), "target": target1(user), "value": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}), "secret_value")
	ok(t, b.Act(t, tok, "c1", in{"action": "fill", "observation": daemontest.ID(obs), "target": target1(user), "value": "ada"}))
}

func portOf(u string) string {
	for i := len(u) - 1; i >= 0; i-- {
		if u[i] == ':' {
			return u[i+1:]
		}
	}
	return ""
}

// openPreview serves h on a preview origin of a buddi serve, gives agent
// ada a task on conversation c1 and navigates it to the origin's "/". It
// returns buddi, ada's token and the origin.
func openPreview(t *testing.T, h http.Handler, env ...string) (*buddi, string, string) {
	t.Helper()
	page := httptest.NewServer(h)
	t.Cleanup(page.Close)
	b := serve(t, "", append([]string{"BUDDI_PREVIEW_ORIGINS=" + page.URL}, env...)...)
	tok := b.AddAgent(t, "ada", false)
	b.Task(t, "ada", "c1", 80)
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": page.URL + "/"}))
	return b, tok, page.URL
}

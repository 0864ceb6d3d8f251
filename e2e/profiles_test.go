package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestE2EAgentsShareOrKeepApartTheirCookies: with the one shared profile
// (the default: the owner signs in once) a cookie one agent's browsing set
// is sent for another agent too; with a profile per agent
// (BUDDI_BROWSER_PROFILES=agent) it is not.
func TestE2EAgentsShareOrKeepApartTheirCookies(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/set", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "ada-secret", Path: "/", MaxAge: 3600})
		fmt.Fprint(w, `<!doctype html><title>Set</title><p>signed in</p>`)
	})
	mux.HandleFunc("/show", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!doctype html><title>Show</title><p>cookies: [%s]</p>`, r.Header.Get("Cookie"))
	})
	page := httptest.NewServer(mux)
	t.Cleanup(page.Close)
	for mode, shared := range map[string]bool{"shared": true, "agent": false} {
		t.Run(mode, func(t *testing.T) {
			b := serve(t, "", "BUDDI_PREVIEW_ORIGINS="+page.URL, "BUDDI_BROWSER_PROFILES="+mode)
			ada, bob := b.AddAgent(t, "ada", false), b.AddAgent(t, "bob", false)
			b.Task(t, "ada", "a1", 80)
			b.Task(t, "bob", "b1", 80)
			ok(t, b.Act(t, ada, "a1", in{"action": "navigate", "url": page.URL + "/set"}))
			ok(t, b.Act(t, bob, "b1", in{"action": "navigate", "url": page.URL + "/show"}))
			text, _ := b.Observe(t, bob, "b1")["text"].(string)
			if got := contains(text, "ada-secret"); got != shared {
				t.Fatalf("bob's request carried ada's cookie: %v, want %v:\n%s", got, shared, text)
			}
			if !contains(text, "cookies: [") {
				t.Fatalf("bob's page did not load:\n%s", text)
			}
			if shared {
				return
			}
			// A removed agent's own profile, with its logins, goes with it.
			agents := filepath.Join(b.dir, "browser", "agents")
			if n := entries(t, agents); n != 2 {
				t.Fatalf("%d agent profiles in %s, want 2", n, agents)
			}
			b.Must(t, "DELETE", "/api/agents/ada", nil)
			waitUntil(t, 30*time.Second, func() bool { return entries(t, agents) == 1 }, "ada's profile to be deleted")
		})
	}
}

// entries counts what dir holds.
func entries(t *testing.T, dir string) int {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(des)
}

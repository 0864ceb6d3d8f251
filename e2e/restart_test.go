package e2e_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/messages"
)

// Chromium killed (kill -9) under two sessions: each session's next act is
// told, with browser_restarted and a sentence, to observe again; after one
// observe each is on the page it had and acts there. The sessions, their
// tasks and their tab ids survive; /healthz counts the restart.
func TestE2EKilledBrowserComesBackWithTheSessionsPages(t *testing.T) {
	s := newSite(t)
	b, tok := setup(t, s, 80, "c1", "c2")
	pages := map[string]string{"c1": s.URL + "/", "c2": s.URL + "/form"}
	for conv, url := range pages {
		ok(t, b.Act(t, tok, conv, in{"action": "navigate", "url": url}))
	}
	obs := map[string]map[string]any{}
	for conv := range pages {
		obs[conv] = b.Observe(t, tok, conv)
	}
	pid := browsertest.BrowserPID(b.dir)
	if pid == 0 {
		t.Fatal("no browser process found for the data directory")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil { // the browser this test's buddi started
		t.Fatal(err)
	}
	targets := map[string][2]string{"c1": {"link", "Next page"}, "c2": {"textbox", "Name"}}
	for conv := range pages {
		ref := daemontest.Ref(t, obs[conv], targets[conv][0], targets[conv][1])
		start := time.Now()
		r := b.Act(t, tok, conv, in{"action": "hover", "observation": daemontest.ID(obs[conv]), "target": target1(ref)})
		took := time.Since(start)
		code(t, r, string(messages.CodeBrowserRestarted))
		t.Logf("%s: the act after the kill answered in %v: %s", conv, took.Round(time.Millisecond), r.Error.Message)
		if took > 15*time.Second {
			t.Errorf("%s: the act after the kill took %v", conv, took)
		}
	}
	for conv, url := range pages {
		o := b.Observe(t, tok, conv)
		if o["url"] != url || o["tab"] != "t1" {
			t.Fatalf("%s after one observe: tab %v at %v, want t1 at %s", conv, o["tab"], o["url"], url)
		}
		ref := daemontest.Ref(t, o, targets[conv][0], targets[conv][1])
		ok(t, b.Act(t, tok, conv, in{"action": "hover", "observation": daemontest.ID(o), "target": target1(ref)}))
	}
	h, err := b.API.Owner(b.Owner).Health(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h.Browser == nil || h.Browser.State != messages.LaunchReady || h.Browser.Restarts != 1 {
		t.Fatalf("healthz after the restart: %+v", h.Browser)
	}
}

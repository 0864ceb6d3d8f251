package e2e_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/egress/netns"
)

// TestE2EWebRTCSendsNoUDP serves, on a preview origin, a page that aims
// STUN, TURN and injected host candidates at a UDP listener on loopback and
// on this host's other address. buddi runs as it does for its owner (as
// root: the browser account, its sandbox, and, where the system allows one,
// a network namespace of the browser's own); no packet may arrive.
func TestE2EWebRTCSendsNoUDP(t *testing.T) {
	trap := browsertest.NewUDPTrap(t)
	reported := make(chan url.Values, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(trap.ProbePage("/report")))
	})
	mux.HandleFunc("/report", func(w http.ResponseWriter, r *http.Request) {
		select {
		case reported <- r.URL.Query():
		default:
		}
	})
	b, _, _ := openPreview(t, mux)
	var q url.Values
	select {
	case q = <-reported:
	case <-time.After(90 * time.Second):
		t.Fatal("the probe never reported")
	}
	t.Logf("probe: %v; packets at the trap: %d", q, trap.Packets())
	if n := trap.Packets(); n != 0 || q.Get("candidates") != "0" {
		t.Fatalf("WebRTC sent %d UDP packets to %v (page: %s local candidates, ICE %s)", n, trap.Hosts, q.Get("candidates"), q.Get("state"))
	}
	if q.Get("error") != "" || q.Get("gathering") != "complete" {
		t.Fatalf("the page did not get through WebRTC's gathering (%s after %s attempts), so not everything was tried: %s", q.Get("gathering"), q.Get("attempts"), q.Get("error"))
	}
	if canMakeNetNS() {
		self, _ := os.Readlink("/proc/self/ns/net")
		pids := browsertest.PIDs(b.dir)
		if len(pids) == 0 {
			t.Fatal("no browser process found")
		}
		for _, pid := range pids {
			if ns, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/net"); ns == self {
				t.Fatalf("as root the browser (pid %d) shares buddi's network namespace %s", pid, ns)
			}
		}
	}
}

// TestE2EBrowserSendsNothingOfItsOwn starts the browser with no page to
// load, then loads one page: the only connections that reach the guard,
// allowed or refused, are that page's. Chromium's own update checks and
// Google account calls (which it sends at start-up) must not be among them.
func TestE2EBrowserSendsNothingOfItsOwn(t *testing.T) {
	served := make(chan struct{}, 1)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><title>Quiet</title><p>quiet</p>"))
		select {
		case served <- struct{}{}:
		default:
		}
	}))
	t.Cleanup(page.Close)
	b := serve(t, "", "BUDDI_PREVIEW_ORIGINS="+page.URL, "BUDDI_LOG_LEVEL=debug")
	tok := b.AddAgent(t, "ada", false)
	b.Task(t, "ada", "c1", 80)
	b.Observe(t, tok, "c1") // launches the browser on a blank tab
	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": page.URL + "/"}))
	select {
	case <-served:
	case <-time.After(30 * time.Second):
		t.Fatal("the page was never requested")
	}
	ok(t, b.Act(t, tok, "c1", in{"action": "wait_for", "wait": in{"load": true}}))

	pageHost := "host=127.0.0.1 port=" + portOf(page.URL)
	var mine, others []string
	for _, line := range strings.Split(b.logs.String(), "\n") {
		if !strings.Contains(line, "egress allowed") && !strings.Contains(line, "egress refused") {
			continue
		}
		if strings.Contains(line, pageHost) {
			mine = append(mine, line)
		} else {
			others = append(others, line)
		}
	}
	if len(mine) == 0 {
		t.Fatalf("the page's own connection was not logged; the test sees nothing:\n%s", b.logs.String())
	}
	if len(others) != 0 {
		t.Fatalf("connections no page asked for reached the guard:\n%s", strings.Join(others, "\n"))
	}
}

// canMakeNetNS reports whether this process could make a network namespace,
// as buddi serve (same user, same capabilities) then does for its browser.
func canMakeNetNS() bool {
	ns, err := netns.New()
	if err != nil {
		return false
	}
	_ = ns.Listener().Close()
	_ = ns.Close()
	return true
}

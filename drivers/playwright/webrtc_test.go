package playwright_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

// TestWebRTCSendsNoUDP loads a page that aims STUN, TURN and injected host
// candidates at a UDP listener on loopback and on this host's other
// address. The browser has no proxy here and runs in the host's network:
// what stops the packets is the profile preferences alone.
func TestWebRTCSendsNoUDP(t *testing.T) {
	d := sharedDriver(t)
	trap := browsertest.NewUDPTrap(t)
	s := newSite(t)
	reported := make(chan url.Values, 1)
	s.mux.HandleFunc("/probe", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(trap.ProbePage("/report")))
	})
	s.mux.HandleFunc("/report", func(w http.ResponseWriter, r *http.Request) {
		select {
		case reported <- r.URL.Query():
		default:
		}
	})
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/probe")
	var q url.Values
	select {
	case q = <-reported:
	case <-time.After(90 * time.Second):
		t.Fatalf("the probe never reported (%s)", s.allHits())
	}
	t.Logf("probe: %v; packets at the trap: %d", q, trap.Packets())
	if n := trap.Packets(); n != 0 || q.Get("candidates") != "0" {
		t.Fatalf("WebRTC sent %d UDP packets to %v (page: %s local candidates, ICE %s)", n, trap.Hosts, q.Get("candidates"), q.Get("state"))
	}
	if q.Get("error") != "" || q.Get("gathering") != "complete" {
		t.Fatalf("the page did not get through WebRTC's gathering (%s after %s attempts), so not everything was tried: %s", q.Get("gathering"), q.Get("attempts"), q.Get("error"))
	}
}

package loadtest

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// An observation asked for before a take-over was acknowledged can be
// answered after it (through another member, on another connection than
// the owner's), and the take-over voided it: the stale_observation the
// agent's next act gets, once the owner has handed back, is the run's
// doing and not counted as unexpected.
func TestAStaleAnswerAfterAHoldAcknowledgedWhileObservingIsExpected(t *testing.T) {
	observing, answer := make(chan struct{}), make(chan struct{})
	var acts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var rep any = messages.Envelope[any]{OK: true, Result: map[string]any{}}
		if req.URL.Path == "/api/tools/browser.act" {
			switch acts.Add(1) {
			case 1: // the observe: answered once the owner's hold is over
				close(observing)
				<-answer
				rep = messages.Envelope[messages.ActReplyResult]{OK: true, Result: messages.ActReplyResult{Observation: "o1.1", URL: "https://sim.localhost/p/1",
					Text: `- link "Next" [ref=e1]`}}
			default: // the act on it: the hand-back voided it
				rep = messages.Envelope[any]{Error: &messages.Error{Code: messages.CodeStaleObservation,
					Message: "Observation o1.1 no longer describes the page (the owner resumed access; observe afresh)."}}
			}
		}
		_ = json.NewEncoder(w).Encode(rep)
	}))
	defer srv.Close()
	cfg, err := Config{Target: srv.URL, OwnerToken: "owner", StaleRate: -1}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRun(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	a := &agent{r: r, conv: "c1", base: "c1", token: "agent", via: r.members[0], rng: rand.New(rand.NewPCG(1, 2))}
	ctx := context.Background()
	observed := make(chan struct{})
	go func() {
		defer close(observed)
		a.step(ctx) // observes
	}()
	<-observing
	r.takeOver(ctx, a, time.Millisecond) // acknowledged, held, handed back
	close(answer)
	<-observed
	if a.pg == nil || a.last != "o1.1" {
		t.Fatalf("the agent did not take the observation: last %q", a.last)
	}
	a.step(ctx) // acts on it: stale_observation
	if n := acts.Load(); n != 2 {
		t.Fatalf("the daemon was sent %d acts; want the observe and one act", n)
	}
	if got := r.stats.snapshot(r.stats.codes)[string(messages.CodeStaleObservation)]; got != 1 {
		t.Fatalf("stale_observation was counted %d times; want once", got)
	}
	if n := r.stats.unexpected.Load(); n != 0 {
		t.Fatalf("%d acts counted as unexpected (%s); the take-over acknowledged while the observation was asked for voided it",
			n, strings.Join(r.notes, "; "))
	}
}

package daemon_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/controller/tasks"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// stallLedger holds every commit of d's ledger until the returned release
// is called; stalled receives once a commit waits.
func stallLedger(t *testing.T, d *daemontest.Daemon) (stalled <-chan struct{}, release func()) {
	return actortest.Stall(t, d.Store())
}

// flooders adds agents enough to file n task requests: an agent may have
// only tasks.MaxPending waiting.
func flooders(t *testing.T, d *daemontest.Daemon, n int) []string {
	t.Helper()
	var tokens []string
	for i := 0; i < n; i += tasks.MaxPending {
		tokens = append(tokens, d.AddAgent(t, fmt.Sprintf("flooder%d", i/tasks.MaxPending), false))
	}
	return tokens
}

// flood has the agents ask for as many tasks as they may: each request is
// a write the ledger must take, in the agents' lane.
func flood(t *testing.T, d *daemontest.Daemon, tokens []string) {
	t.Helper()
	for i := range len(tokens) * tasks.MaxPending {
		r := d.Tool(t, tokens[i/tasks.MaxPending], "browser.task", fmt.Sprintf("flood%04d", i), map[string]any{"description": "flood"})
		if r.Code() != "" {
			t.Fatalf("task request %d: %s", i, r.Code())
		}
	}
}

// Stop acts first and persists second: with the ledger stalled behind an
// agent's flood of writes, the Stop still ends the action in flight and
// closes the tabs, and it is durable once the ledger catches up, across a
// restart.
func TestStopActsFirstWhileTheLedgerIsStalled(t *testing.T) {
	dir := t.TempDir()
	o := simOpts(sim.Config{LoadLatency: time.Hour}, nil)
	mode := o.Mode.(*sim.Mode)
	d := daemontest.Start(t, dir, o)
	token := d.AddAgent(t, "ada", false)
	tokens := flooders(t, d, 200)
	d.Task(t, "ada", "c1", 80)
	d.Observe(t, token, "c1")
	inflight := make(chan *daemontest.Reply, 1)
	go func() {
		inflight <- d.Act(t, token, "c1", map[string]any{"action": "navigate", "url": sim.Origin + "/p/3"})
	}()
	d.WaitSession(t, "c1", messages.StateWorking)

	stalled, release := stallLedger(t, d)
	flood(t, d, tokens)
	<-stalled
	stops := d.Events(t, events.Filter{Kinds: messages.KindStop})
	answered := make(chan *daemontest.Reply, 1)
	go func() {
		r, err := d.Do("POST", "/api/browser/stop", d.Owner, nil)
		if err != nil {
			r = &daemontest.Reply{}
		}
		answered <- r
	}()

	daemontest.Await(t, stops, "for the sessions to drop their work", func(ev messages.Event) bool {
		return ev.(*messages.StopChanged).Settled
	})
	if r := <-inflight; r.Code() != messages.CodeStopped {
		t.Fatalf("the navigate in flight was answered %q, want stopped", r.Code())
	}
	for _, drv := range mode.Drivers() {
		if drv.Conversation("c1") != nil {
			t.Fatal("c1's tabs are still open while the ledger is stalled")
		}
	}
	if h, err := d.API.Owner(d.Owner).Health(t.Context()); err != nil || !h.Stopped {
		t.Fatalf("healthz during the stall: %+v %v", h, err)
	}
	var early *daemontest.Reply
	select {
	case early = <-answered: // only a store_failed may come before the ledger has the Stop
		if early.OK {
			t.Fatalf("the Stop was acknowledged before the ledger had it: %s", early.Result)
		}
	default:
	}

	release()
	daemontest.Await(t, stops, "for the Stop to be saved", func(ev messages.Event) bool {
		return ev.(*messages.StopChanged).Saved
	})
	if early == nil {
		if r := <-answered; !r.OK {
			t.Fatalf("the Stop answered %q", r.Code())
		}
	}
	d.Stop(t)
	d = daemontest.Start(t, dir, simOpts(sim.Config{}, nil))
	wantCode(t, d.Act(t, token, "c1", map[string]any{"action": "observe"}), "stopped")
}

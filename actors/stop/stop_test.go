package stop_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/events/eventstest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// A Stop acts at once and is answered once the sessions dropped their work
// and the ledger has it.
func TestAStopActsAtOnceAndIsAnsweredOnceSaved(t *testing.T) {
	m := newMember(t, actortest.System(t), nil)
	added := m.owner(t, &messages.AddAgent{Name: "ada"}).(*messages.AgentAdded)
	m.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"})
	stops := m.bus.Subscribe(events.Filter{Kinds: messages.KindStop})
	defer stops.Close()
	r := actortest.Ask[*messages.OwnerReply](t, m.sys, m.stop, &messages.StopAll{})
	if res, ok := r.Result.(*messages.StopResult); !ok || !res.Stopped || res.Sessions != 1 {
		t.Fatalf("the Stop answered %+v (%v); want stopped, one session", r.Result, r.Error)
	}
	if got := m.act(t, secret.Hash(added.Token)); got.Error == nil || got.Error.Code != messages.CodeStopped {
		t.Fatalf("an act during the Stop: %+v", got.Error)
	}
	if s, err := m.store.Stop(); err != nil || !s.Stopped {
		t.Fatalf("the answered Stop is not in the ledger: %+v %v", s, err)
	}
	eventstest.Await(t, stops, "for the Stop to be settled and saved", func(ev messages.Event) bool {
		s := ev.(*messages.StopChanged)
		return s.Stopped && s.Saved && s.Settled && s.Sessions == 1
	})
	actortest.Ask[*messages.OwnerReply](t, m.sys, m.stop, &messages.ResumeAll{})
	if got := m.act(t, secret.Hash(added.Token)); got.Error != nil {
		t.Fatalf("after resuming: %v", got.Error)
	}
}

// The controller is restarted after a Stop was decided and before the
// ledger or etcd had it (both away): the Stop holds in the new instance
// from its first message; once the ledger has it, a stale flag from etcd's
// watch does not lift it while etcd is away; and it reaches etcd once etcd
// is back.
func TestAControllerRestartBetweenAStopAndItsPersistenceLosesNothing(t *testing.T) {
	e := newEtcd(t)
	m := newMember(t, actortest.System(t), e)
	added := m.owner(t, &messages.AddAgent{Name: "ada"}).(*messages.AgentAdded)
	m.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"})
	until(t, "the member to hear from etcd", func() bool { return m.board.Load().Heard })

	e.setAway(true)
	stalled, release := actortest.Stall(t, m.store)
	answer := m.sys.Root.RequestFuture(m.stop, &messages.StopAll{}, actortest.Wait*3)
	<-stalled
	until(t, "the routing table to refuse", func() bool { return m.act(t, secret.Hash(added.Token)).Error != nil })
	if err := m.sys.Root.PoisonFuture(m.ctl).Wait(); err != nil {
		t.Fatal(err)
	}
	m.ctl = m.controller(t)
	if got := m.act(t, secret.Hash(added.Token)); got.Error == nil || got.Error.Code != messages.CodeStopped {
		t.Fatalf("the restarted controller answered an act %+v; want stopped", got.Error)
	}

	release()
	until(t, "the Stop in the ledger", func() bool { s, err := m.store.Stop(); return err == nil && s.Stopped })
	m.sys.Root.Send(m.stop, &messages.ClusterStop{Reachable: true, Stopped: false}) // etcd's flag, never written
	if got := m.act(t, secret.Hash(added.Token)); got.Error == nil || got.Error.Code != messages.CodeStopped {
		t.Fatalf("with etcd away and its stale flag heard, an act was answered %+v; want stopped", got.Error)
	}
	e.setAway(false)
	until(t, "the Stop in etcd", func() bool { flag, rev := e.flag(); return flag && rev > 0 })
	if !actortest.Ask[*messages.Health](t, m.sys, m.ctl, &messages.GetHealth{}).Stopped || !m.board.Load().Stop.Stopped {
		t.Fatal("a stale flag lifted the owner's Stop")
	}
	if s, err := m.store.Stop(); err != nil || !s.Stopped {
		t.Fatalf("the ledger holds %+v, %v", s, err)
	}
	res, err := answer.Result()
	if r, ok := res.(*messages.OwnerReply); err != nil || !ok || r.Error != nil && r.Error.Code != messages.CodeStoreFailed {
		t.Fatalf("the Stop answered %+v, %v; want it answered (done, or in force and not durable yet)", res, err)
	}
}

// Stops and resumes race from two members of a cluster (two surfaces, two
// etcd writers), each member hearing the other's commits in its own time:
// once every owner is answered (each decision made is in etcd), both
// members, both ledgers and etcd hold the flag etcd committed last, and
// each member's last StopChanged says so.
func TestStopsAndResumesRacingFromTwoMembersEndInTheLastOnesState(t *testing.T) {
	e := newEtcd(t)
	sys := actortest.System(t)
	a, b := newMember(t, sys, e), newMember(t, sys, e)
	subs := []*events.Subscription{a.bus.Subscribe(events.Filter{Kinds: messages.KindStop}),
		b.bus.Subscribe(events.Filter{Kinds: messages.KindStop})}
	for _, s := range subs {
		defer s.Close()
	}
	for round := range 20 {
		t.Run(fmt.Sprint(round), func(t *testing.T) {
			var wg sync.WaitGroup
			for i, m := range []*member{a, b} {
				wg.Go(func() {
					var asked []*actor.Future
					for j := range 5 {
						var msg any = &messages.StopAll{}
						if (i+j+round)%2 == 1 {
							msg = &messages.ResumeAll{}
						}
						asked = append(asked, m.sys.Root.RequestFuture(m.stop, msg, actortest.Wait))
					}
					for _, f := range asked {
						if r, err := f.Result(); err != nil || r.(*messages.OwnerReply).Error != nil {
							t.Errorf("a decision was answered %v, %v", r, err)
						}
					}
				})
			}
			wg.Wait()
			converged(t, e, a, b)
			flag, _ := e.flag()
			for _, s := range subs {
				eventstest.Await(t, s, "for the last StopChanged to show etcd's flag, saved", func(ev messages.Event) bool {
					c := ev.(*messages.StopChanged)
					return c.Stopped == flag && c.Saved
				})
			}
		})
	}
}

// converged waits until every member and its ledger hold etcd's flag.
func converged(t *testing.T, e *etcd, ms ...*member) {
	t.Helper()
	until(t, "every member to hold etcd's last flag", func() bool {
		flag, _ := e.flag()
		for _, m := range ms {
			s, err := m.store.Stop()
			v := m.board.Load()
			if err != nil || s.Stopped != flag || v.Stop.Stopped != flag {
				return false
			}
			if h := actortest.Ask[*messages.Health](t, m.sys, m.ctl, &messages.GetHealth{}); h.Stopped != flag {
				return false
			}
		}
		return true
	})
}

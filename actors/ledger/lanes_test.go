package ledger_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// stall makes the ledger's commits wait on release; stalled has a value
// while a commit waits. It counts commits.
type stall struct {
	stalled chan struct{}
	release chan struct{}
	commits atomic.Int32
}

func stallAt(st *ledger.Store) *stall {
	s := &stall{stalled: make(chan struct{}, 1), release: make(chan struct{})}
	st.BeforeCommit(func() {
		s.commits.Add(1)
		select {
		case s.stalled <- struct{}{}:
		default:
		}
		<-s.release
	})
	return s
}

// recorder collects the acknowledgements it is sent, in order.
type recorder struct{ got chan string }

func (r *recorder) Receive(ctx actor.Context) {
	if w, ok := ctx.Message().(*ledger.Written); ok && w.Err == nil {
		r.got <- "ok"
	}
}

func TestGroupCommitTakesEverythingWaitingInOneFsync(t *testing.T) {
	st, pid, sys := open(t)
	s := stallAt(st)
	first := ledger.Request(sys.Root, pid, &ledger.Write{Ops: []ledger.Op{ledger.Put(ledger.TaskKey("a0"), ledger.Task{})}}, 10*time.Second)
	<-s.stalled
	var rest []*actor.Future
	for i := range 50 {
		rest = append(rest, ledger.Request(sys.Root, pid, &ledger.Write{Ops: []ledger.Op{
			ledger.Put(ledger.TaskKey("a"+string(rune('A'+i))), ledger.Task{})}}, 10*time.Second))
	}
	close(s.release)
	for _, f := range append(rest, first) {
		if err := ledger.Check(f.Result()); err != nil {
			t.Fatal(err)
		}
	}
	if n := s.commits.Load(); n != 2 {
		t.Fatalf("51 writes took %d commits, want 2 (the first, then all that waited behind it)", n)
	}
}

func TestOwnerWriteIsCommittedAheadOfWaitingAgentWrites(t *testing.T) {
	st, pid, sys := open(t)
	s := stallAt(st)
	rec := &recorder{got: make(chan string, 20)}
	agentAcks := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return rec }))
	ownerRec := &recorder{got: make(chan string, 1)}
	ownerAck := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return ownerRec }))
	put := func(conv string) []ledger.Op {
		return []ledger.Op{ledger.Put(ledger.TaskKey(conv), ledger.Task{Conversation: conv})}
	}
	sys.Root.Send(pid, &ledger.Write{Ops: put("first"), ReplyTo: agentAcks})
	<-s.stalled
	for i := range 10 {
		sys.Root.Send(pid, &ledger.Write{Ops: put("agent" + string(rune('0'+i))), ReplyTo: agentAcks})
	}
	sys.Root.Send(pid, &ledger.Write{Owner: true, Ops: put("owner"), ReplyTo: ownerAck})
	close(s.release)
	<-rec.got // the first write, committed before the stall lifted
	<-ownerRec.got
	if len(rec.got) != 0 {
		t.Fatalf("%d agent writes that arrived first were acknowledged before the owner's", len(rec.got))
	}
	for range 10 {
		<-rec.got
	}
	if n := s.commits.Load(); n != 3 {
		t.Fatalf("%d commits, want 3: the first, the owner's alone, the agents' together", n)
	}
}

func TestAnOlderOpNeverOverwritesANewerOne(t *testing.T) {
	st, pid, sys := open(t)
	older := ledger.Put(ledger.TaskKey("c1"), ledger.Task{Description: "older"})
	newer := ledger.Put(ledger.TaskKey("c1"), ledger.Task{Description: "newer"})
	write(t, sys, pid, newer) // the owner's lane overtook the older write
	write(t, sys, pid, older)
	task, _, err := st.Task("c1")
	if err != nil || task.Description != "newer" {
		t.Fatalf("c1 = %q (%v), want the newer write's", task.Description, err)
	}
}

func TestPersistAnswersInTimeAndTheWriteStillLands(t *testing.T) {
	st, pid, sys := open(t)
	s := stallAt(st)
	answered := make(chan error, 1)
	ledger.Persist(sys, pid, &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Put(ledger.StopKey(), ledger.Stop{Stopped: true})}},
		10*time.Millisecond, func(err error) { answered <- err })
	<-s.stalled
	if err := <-answered; !errors.Is(err, ledger.ErrNotSaved) {
		t.Fatalf("Persist answered %v while the ledger was stalled, want ErrNotSaved", err)
	}
	close(s.release)
	landed := make(chan error, 1)
	ledger.Persist(sys, pid, &ledger.Write{Owner: true, Ops: []ledger.Op{ledger.Put(ledger.AgentKey("probe"), ledger.Agent{})}},
		time.Minute, func(err error) { landed <- err })
	if err := <-landed; err != nil {
		t.Fatal(err)
	}
	if stop, err := st.Stop(); err != nil || !stop.Stopped {
		t.Fatalf("the Stop did not land: %+v %v", stop, err)
	}
}

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
	st.BeforeCommit(s.hold)
	return s
}

// hold is the stall itself: it counts the commit and waits for release.
func (s *stall) hold() {
	s.commits.Add(1)
	select {
	case s.stalled <- struct{}{}:
	default:
	}
	<-s.release
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
	// Before each commit, which of the owner's write and an agent's are
	// already durable: the order of commits, read where they happen (the
	// acknowledgements go to two actors, whose turns are not ordered).
	durable := make(chan [2]bool, 8)
	has := func(conv string) bool { _, ok, err := st.Task(conv); return ok && err == nil }
	st.BeforeCommit(func() {
		durable <- [2]bool{has("owner"), has("agent0")}
		s.hold()
	})
	acks := &recorder{got: make(chan string, 20)}
	ack := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return acks }))
	put := func(conv string) []ledger.Op {
		return []ledger.Op{ledger.Put(ledger.TaskKey(conv), ledger.Task{Conversation: conv})}
	}
	sys.Root.Send(pid, &ledger.Write{Ops: put("first"), ReplyTo: ack})
	<-s.stalled
	for i := range 10 {
		sys.Root.Send(pid, &ledger.Write{Ops: put("agent" + string(rune('0'+i))), ReplyTo: ack})
	}
	sys.Root.Send(pid, &ledger.Write{Owner: true, Ops: put("owner"), ReplyTo: ack})
	close(s.release)
	for range 12 {
		<-acks.got
	}
	if n := s.commits.Load(); n != 3 {
		t.Fatalf("%d commits, want 3: the first, the owner's alone, the agents' together", n)
	}
	<-durable // before the first commit
	if d := <-durable; d != [2]bool{false, false} {
		t.Fatalf("before the second commit owner/agent durable = %v, want neither", d)
	}
	if d := <-durable; d != [2]bool{true, false} {
		t.Fatalf("before the third commit owner/agent durable = %v, want the owner's only: agent writes that arrived first were committed ahead of it", d)
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

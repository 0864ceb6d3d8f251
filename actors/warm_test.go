package actors_test

import (
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
)

// TestWarmRunsEachFuncWithoutWaitingForABusyOne schedules funcs that each
// wait for the next to have started: Schedule must hand each to a
// goroutine of its own while the others are busy, or the chain would
// never end.
func TestWarmRunsEachFuncWithoutWaitingForABusyOne(t *testing.T) {
	w := actors.NewWarm(10)
	const n = 50
	started := make([]chan struct{}, n+1)
	for i := range started {
		started[i] = make(chan struct{})
	}
	close(started[n])
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		w.Schedule(func() {
			defer wg.Done()
			close(started[i])
			<-started[i+1]
		})
	}
	wg.Wait()
}

// TestWarmRunsSeriesOfFuncs runs many funcs one after another through
// one Warm, each once.
func TestWarmRunsSeriesOfFuncs(t *testing.T) {
	w := actors.NewWarm(10)
	if w.Throughput() != 10 {
		t.Fatalf("throughput %d, want 10", w.Throughput())
	}
	ran := make(chan int)
	seen := make(map[int]bool)
	for i := range 1000 {
		w.Schedule(func() { ran <- i })
		got := <-ran
		if seen[got] {
			t.Fatalf("func %d ran twice", got)
		}
		seen[got] = true
	}
	if len(seen) != 1000 {
		t.Fatalf("%d funcs ran, want 1000", len(seen))
	}
}

// TestWarmRunsAnActorsMailbox spawns an actor on the hot path's
// dispatcher and asks it: its messages are delivered in order.
func TestWarmRunsAnActorsMailbox(t *testing.T) {
	sys := actors.NewSystem(slog.New(slog.DiscardHandler))
	var got []int
	done := make(chan struct{})
	pid := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if n, ok := ctx.Message().(int); ok {
			got = append(got, n)
			if n == 99 {
				close(done)
			}
		}
	}, actor.WithDispatcher(actors.Dispatcher)))
	for i := range 100 {
		sys.Root.Send(pid, i)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the actor did not get its messages")
	}
	for i, n := range got {
		if n != i {
			t.Fatalf("message %d was %d: out of order", i, n)
		}
	}
	sys.Root.Stop(pid)
}

// TestWarmEndsWhatABurstLeftIdle runs a burst that needs twenty goroutines
// at once, then nothing: every goroutine ends, the sweeper too, and the
// next func still runs (on a goroutine, and a sweeper, started again).
func TestWarmEndsWhatABurstLeftIdle(t *testing.T) {
	w := actors.NewWarmIdle(10, 20*time.Millisecond)
	const n = 20
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(n)
	for range n {
		w.Schedule(func() { started.Done(); <-release })
	}
	started.Wait()
	if live, sweeping := actors.WarmLive(w); live != n || !sweeping {
		t.Fatalf("during the burst: %d goroutines (sweeper running: %v), want %d and a sweeper", live, sweeping, n)
	}
	close(release)
	ended := func() bool { live, sweeping := actors.WarmLive(w); return live == 0 && !sweeping }
	for deadline := time.Now().Add(10 * time.Second); !ended(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			live, sweeping := actors.WarmLive(w)
			t.Fatalf("10 s after the burst: %d goroutines left (sweeper running: %v)", live, sweeping)
		}
	}
	ran := make(chan struct{})
	w.Schedule(func() { close(ran) })
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("a func scheduled after the sweep did not run")
	}
}

// BenchmarkWarmHandOff hands funcs one at a time to a Warm and waits for
// each, as a mailbox that goes idle between messages does: the cost of
// one hand-off to an idle goroutine.
func BenchmarkWarmHandOff(b *testing.B) {
	w := actors.NewWarm(10)
	done := make(chan struct{})
	f := func() { done <- struct{}{} }
	for b.Loop() {
		w.Schedule(f)
		<-done
	}
}

// TestWarmTellsACountedFuncsGroupOnceItReturned runs counted funcs that
// each hold until released: the group waits for all of them, and a func
// still running keeps it waiting.
func TestWarmTellsACountedFuncsGroupOnceItReturned(t *testing.T) {
	w := actors.NewWarm(10)
	var group sync.WaitGroup
	release := make(chan struct{})
	var ran sync.WaitGroup
	const n = 20
	group.Add(n)
	ran.Add(n)
	for range n {
		w.Counted(func() { ran.Done(); <-release }, &group)
	}
	ran.Wait() // every func has started, none returned
	waited := make(chan struct{})
	go func() { group.Wait(); close(waited) }()
	select {
	case <-waited:
		t.Fatal("the group was told before its funcs returned")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-waited // every func returned, and the group was told of each once (a second Done would panic)
}

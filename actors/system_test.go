package actors_test

import (
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
)

type ping struct{ n int }

// TestTheSystemsRegistryStaysSmallAndWorks: a system from NewSystem finds
// every process it made (actors, futures, the dead letters it registered
// as it was made), and after 20,000 processes came and went its registry
// holds well under a megabyte, where protoactor's own grows all of its
// 32,768 maps (about 12 MB).
func TestTheSystemsRegistryStaysSmallAndWorks(t *testing.T) {
	sys := actors.NewSystem(slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(sys.Shutdown)
	echo := actor.PropsFromFunc(func(c actor.Context) {
		if m, ok := c.Message().(*ping); ok {
			c.Respond(&ping{n: m.n + 1})
		}
	})
	pid := sys.Root.Spawn(echo)
	if res, err := sys.Root.RequestFuture(pid, &ping{n: 1}, 5*time.Second).Result(); err != nil || res.(*ping).n != 2 {
		t.Fatalf("an actor of the system answered %v, %v", res, err)
	}
	if _, ok := sys.ProcessRegistry.GetLocal(pid.Id); !ok {
		t.Fatalf("the registry does not find %s", pid.Id)
	}

	dead := make(chan any, 1)
	sub := sys.EventStream.Subscribe(func(evt any) {
		if d, ok := evt.(*actor.DeadLetterEvent); ok {
			select {
			case dead <- d.Message:
			default:
			}
		}
	})
	defer sys.EventStream.Unsubscribe(sub)
	if err := sys.Root.StopFuture(pid).Wait(); err != nil {
		t.Fatal(err)
	}
	sys.Root.Send(pid, &ping{n: 7})
	select {
	case m := <-dead:
		if p, ok := m.(*ping); !ok || p.n != 7 {
			t.Fatalf("dead letters got %v", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a message to a stopped actor never reached the dead letters")
	}

	before := heapInUse()
	for i := range 10_000 {
		p := sys.Root.Spawn(echo)
		if _, err := sys.Root.RequestFuture(p, &ping{n: i}, 5*time.Second).Result(); err != nil {
			t.Fatal(err)
		}
		if err := sys.Root.StopFuture(p).Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if grew := heapInUse() - before; grew > 1<<20 {
		t.Fatalf("after 20,000 processes came and went the heap is %d KB larger", grew>>10)
	}
}

func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

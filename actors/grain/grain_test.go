package grain_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/grain"
)

// conversation is a Conversation whose preparation waits for release and
// then succeeds or refuses.
type conversation struct {
	release  chan struct{}
	started  chan struct{}
	once     sync.Once
	refuse   bool
	ready    bool
	prepares atomic.Int32
	runs     atomic.Int32
	lost     atomic.Bool // Run loses the conversation on a *lose call
}

func newConversation(refuse bool) *conversation {
	return &conversation{release: make(chan struct{}), started: make(chan struct{}), refuse: refuse}
}

func (c *conversation) Prepare() (any, func(context.Context) any) {
	if c.ready {
		return nil, nil
	}
	c.prepares.Add(1)
	return nil, func(ctx context.Context) any {
		c.once.Do(func() { close(c.started) })
		select {
		case <-c.release:
		case <-ctx.Done():
		}
		return "prepared"
	}
}

func (c *conversation) Prepared(result any) any {
	if c.refuse || result != "prepared" {
		return "refused"
	}
	c.ready = true
	return nil
}

func (c *conversation) Arrive(any) any         { return nil }
func (c *conversation) Deadline(any) time.Time { return time.Now().Add(20 * time.Second) }
func (c *conversation) Late() any              { return "late" }
func (c *conversation) Keeps() func() bool     { return func() bool { return true } }
func (c *conversation) Lost() bool             { return c.lost.Load() }
func (c *conversation) Run(_ context.Context, msg any) any {
	c.runs.Add(1)
	if _, ok := msg.(*lose); ok {
		c.lost.Store(true)
	}
	return msg
}

// call is a call sent to the grain.
type call struct{ n int }

// lose is a call that finds the conversation held elsewhere.
type lose struct{}

func spawn(t *testing.T, c *conversation) (*actor.RootContext, *actor.PID) {
	t.Helper()
	sys := actor.NewActorSystem()
	pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor { return grain.New(c, nil) }))
	t.Cleanup(func() { _ = sys.Root.StopFuture(pid).Wait() })
	return sys.Root, pid
}

// The grain's mailbox goes on while its conversation prepares off it (a
// claim in etcd): a Stop is taken although the preparation never ends.
func TestGrainStopsWhileItsConversationPrepares(t *testing.T) {
	c := newConversation(false)
	root, pid := spawn(t, c)
	root.Request(pid, &call{1})
	<-c.started
	if err := root.StopFuture(pid).Wait(); err != nil {
		t.Fatalf("the grain did not stop while its conversation prepared: %v", err)
	}
	close(c.release)
}

// Calls that come while the conversation prepares get their own answers
// once it is ready, and the preparation runs once for them all.
func TestGrainRunsTheCallsThatWaitedForItsPreparation(t *testing.T) {
	c := newConversation(false)
	root, pid := spawn(t, c)
	first := root.RequestFuture(pid, &call{1}, 10*time.Second)
	<-c.started
	rest := []*actor.Future{root.RequestFuture(pid, &call{2}, 10*time.Second), root.RequestFuture(pid, &call{3}, 10*time.Second)}
	close(c.release)
	for i, f := range append([]*actor.Future{first}, rest...) {
		res, err := f.Result()
		if err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		if got, ok := res.(*call); !ok || got.n != i+1 {
			t.Fatalf("call %d was answered %v", i+1, res)
		}
	}
	if n := c.prepares.Load(); n != 1 {
		t.Fatalf("the conversation prepared %d times for three calls", n)
	}
}

// A preparation that fails answers every call that waited for it, and
// none of them runs.
func TestGrainRefusesTheCallsOfAFailedPreparation(t *testing.T) {
	c := newConversation(true)
	root, pid := spawn(t, c)
	futures := []*actor.Future{root.RequestFuture(pid, &call{1}, 10*time.Second)}
	<-c.started
	futures = append(futures, root.RequestFuture(pid, &call{2}, 10*time.Second))
	close(c.release)
	for i, f := range futures {
		if res, err := f.Result(); err != nil || res != "refused" {
			t.Fatalf("call %d was answered %v (%v), want refused", i+1, res, err)
		}
	}
	if n := c.runs.Load(); n != 0 {
		t.Fatalf("%d calls ran after their preparation failed", n)
	}
}

// A call that finds the conversation held by another activation gets its
// answer, and then the grain stops: the next call is placed anew.
func TestGrainStopsOnceItsConversationIsLostAndItsCallAnswered(t *testing.T) {
	c := newConversation(false)
	c.ready = true
	root, pid := spawn(t, c)
	if res, err := root.RequestFuture(pid, &call{1}, 10*time.Second).Result(); err != nil || res.(*call).n != 1 {
		t.Fatalf("the first call was answered %v (%v)", res, err)
	}
	stopped := make(chan struct{})
	watcher := root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *actor.Started:
			ctx.Watch(pid)
		case *actor.Terminated:
			if m.Who.Equal(pid) {
				close(stopped)
			}
		}
	}))
	defer root.Stop(watcher)
	if res, err := root.RequestFuture(pid, &lose{}, 10*time.Second).Result(); err != nil {
		t.Fatalf("the call that lost the conversation was not answered: %v", err)
	} else if _, ok := res.(*lose); !ok {
		t.Fatalf("the call that lost the conversation was answered %v", res)
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the grain did not stop after its conversation was lost")
	}
}

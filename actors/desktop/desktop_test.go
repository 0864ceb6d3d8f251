package desktop_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/desktop"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// buddi is a ledger on a Pebble store in dir and the lock on it, as a
// daemon start makes them; stop closes both, as a shutdown does.
type buddi struct {
	sys   *actor.ActorSystem
	store *ledger.Store
	led   *actor.PID
	lock  *actor.PID
}

func start(t *testing.T, dir string, clock *actortest.Clock) *buddi {
	t.Helper()
	sys := actortest.System(t)
	st, err := ledger.Open(filepath.Join(dir, "state"))
	if err != nil {
		t.Fatal(err)
	}
	b := &buddi{sys: sys, store: st}
	b.led = sys.Root.Spawn(ledger.Props(st, slog.New(slog.DiscardHandler), ledger.Retention{}))
	b.lock = sys.Root.Spawn(desktop.Props(desktop.Config{Store: st, Ledger: b.led, Now: clock.Now, Lease: time.Hour}))
	t.Cleanup(func() { b.stop() })
	return b
}

func (b *buddi) stop() {
	if b.store == nil {
		return
	}
	_ = b.sys.Root.PoisonFuture(b.lock).Wait()
	_ = b.sys.Root.PoisonFuture(b.led).Wait()
	_ = b.store.Close()
	b.store = nil
}

func (b *buddi) acquire(t *testing.T, conv string) any {
	t.Helper()
	return actortest.Ask[any](t, b.sys, b.lock, &desktop.Acquire{Conversation: conv})
}

func held(t *testing.T, b *buddi, conv string) {
	t.Helper()
	if _, ok := b.acquire(t, conv).(*desktop.Held); !ok {
		t.Fatalf("%s was refused the computer", conv)
	}
}

func refused(t *testing.T, b *buddi, conv string, code messages.Code) {
	t.Helper()
	r, ok := b.acquire(t, conv).(*desktop.Refused)
	if !ok || r.Err.Code != code || r.Err.Message == "" {
		t.Fatalf("%s got %+v; want refused with %s", conv, r, code)
	}
}

func (b *buddi) release(t *testing.T, conv string) {
	t.Helper()
	actortest.Ask[*desktop.Released](t, b.sys, b.lock, &desktop.Release{Conversation: conv})
}

func (b *buddi) owner(t *testing.T, msg any) {
	t.Helper()
	if s := actortest.Ask[*desktop.Saved](t, b.sys, b.lock, msg); s.Err != nil {
		t.Fatalf("%T was not saved: %v", msg, s.Err)
	}
}

var t0 = time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)

// TestOneConversationHoldsTheComputer: the first conversation keeps the lock
// across its calls, another is refused until the first releases, and a
// release by a conversation that does not hold it changes nothing.
func TestOneConversationHoldsTheComputer(t *testing.T) {
	b := start(t, t.TempDir(), actortest.NewClock(t0))
	held(t, b, "a")
	held(t, b, "a")
	refused(t, b, "b", messages.CodeNotAllowed)
	b.release(t, "b")
	refused(t, b, "b", messages.CodeNotAllowed)
	b.release(t, "a")
	held(t, b, "b")
	refused(t, b, "a", messages.CodeNotAllowed)
}

// TestLeaseRunsOut: a conversation that makes no call for the lease loses
// the lock; each call renews it.
func TestLeaseRunsOut(t *testing.T) {
	clock := actortest.NewClock(t0)
	b := start(t, t.TempDir(), clock)
	held(t, b, "a")
	clock.Advance(50 * time.Minute)
	held(t, b, "a")
	clock.Advance(50 * time.Minute)
	refused(t, b, "b", messages.CodeNotAllowed)
	clock.Advance(11 * time.Minute)
	held(t, b, "b")
}

// TestStopHoldsAcrossRestart: the owner's Stop takes the lock from its
// holder and refuses everyone, also after a restart on the same store,
// until resume; the holder itself survives a restart too.
func TestStopHoldsAcrossRestart(t *testing.T) {
	dir, clock := t.TempDir(), actortest.NewClock(t0)
	b := start(t, dir, clock)
	held(t, b, "a")
	b.owner(t, &desktop.Revoke{})
	refused(t, b, "a", messages.CodeStopped)
	refused(t, b, "b", messages.CodeStopped)
	b.stop()

	b = start(t, dir, clock)
	refused(t, b, "a", messages.CodeStopped)
	if st := actortest.Ask[*desktop.State](t, b.sys, b.lock, &desktop.Query{}); !st.Revoked || st.Holder != "" {
		t.Fatalf("after a restart the lock reads %+v; want revoked, held by nobody", st)
	}
	b.owner(t, &desktop.Resume{})
	held(t, b, "b")
	b.stop()

	b = start(t, dir, clock)
	refused(t, b, "a", messages.CodeNotAllowed)
	held(t, b, "b")
}

// TestATakeOverKeepsTheLock: while the owner has the holder taken over its
// lease does not run out, however long; given back, the lease starts again
// from then. A hold for a conversation that does not hold the lock keeps
// nothing.
func TestATakeOverKeepsTheLock(t *testing.T) {
	clock := actortest.NewClock(t0)
	b := start(t, t.TempDir(), clock)
	held(t, b, "a")
	b.sys.Root.Send(b.lock, &desktop.Hold{Conversation: "b", On: true})
	b.sys.Root.Send(b.lock, &desktop.Hold{Conversation: "a", On: true})
	actortest.Ask[*desktop.State](t, b.sys, b.lock, &desktop.Query{}) // the holds are in before the clock moves
	clock.Advance(3 * time.Hour)
	refused(t, b, "b", messages.CodeNotAllowed)
	if s := actortest.Ask[*desktop.State](t, b.sys, b.lock, &desktop.Query{}); s.Holder != "a" || !s.Kept {
		t.Fatalf("after three hours taken over the lock is %+v; want a's, kept", s)
	}
	b.sys.Root.Send(b.lock, &desktop.Hold{Conversation: "a", On: false})
	actortest.Ask[*desktop.State](t, b.sys, b.lock, &desktop.Query{})
	clock.Advance(50 * time.Minute)
	refused(t, b, "b", messages.CodeNotAllowed)
	clock.Advance(11 * time.Minute)
	held(t, b, "b")
	if s := actortest.Ask[*desktop.State](t, b.sys, b.lock, &desktop.Query{}); s.Holder != "b" || s.Kept {
		t.Fatalf("the lock is %+v; want b's, not kept", s)
	}
}

// The driver's release returns only once the lock has answered it: the
// owner is told a session was released after its tabs closed, and another
// conversation's open that follows must find the computer free (a release
// sent without waiting was refused to that open under load).
func TestTheDriversReleaseReturnsOnceTheLockHasTakenItIn(t *testing.T) {
	sys := actortest.System(t)
	asked, answer := make(chan struct{}), make(chan struct{})
	slow := sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		if _, ok := ctx.Message().(*desktop.Release); ok {
			close(asked)
			<-answer // answered when the test says
			ctx.Respond(&desktop.Released{})
		}
	}))
	returned := make(chan struct{})
	go func() {
		desktop.Client{Root: sys.Root, PID: slow}.Release(context.Background(), "c1")
		close(returned)
	}()
	<-asked
	select {
	case <-returned:
		t.Fatal("Release returned before the lock answered it")
	case <-time.After(200 * time.Millisecond):
	}
	close(answer)
	<-returned

	b := start(t, t.TempDir(), actortest.NewClock(t0))
	held(t, b, "c1")
	desktop.Client{Root: b.sys.Root, PID: b.lock}.Release(context.Background(), "c1")
	held(t, b, "c2")
}

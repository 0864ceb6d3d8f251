package pacer_test

import (
	"context"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

type screen struct{ frames chan handwire.FrameHeader }

func (s *screen) Frame(b []byte) {
	h, _, err := handwire.DecodeFrame(b)
	if err == nil {
		s.frames <- h
	}
}
func (*screen) Ping()                  {}
func (*screen) Check() *messages.Error { return nil }
func (*screen) End(*messages.Error)    {}

// pinned is a page of a sim driver made with cfg, pinned for a hand, with
// its tabs; both go at the test's end.
func pinned(t *testing.T, cfg sim.Config) (*sim.Tabs, drivers.Pinned) {
	t.Helper()
	drv := sim.New(cfg)
	t.Cleanup(func() { _ = drv.Close() })
	tabs, err := drv.Open(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	pin, err := tabs.(*sim.Tabs).Pin(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pin.Unpin)
	return tabs.(*sim.Tabs), pin
}

// A tab that does not ack gets one frame and no more; staying behind steps
// the quality down; acking every frame steps it back up.
func TestOneFrameOnTheWireAndQualityStepsDownAndUp(t *testing.T) {
	sys := actortest.System(t)
	_, pin := pinned(t, sim.Config{CastFPS: 100, CastBytes: 40 << 10})
	s := &screen{frames: make(chan handwire.FrameHeader, 64)}
	steps := make(chan int, 8)
	pid := make(chan *actor.PID, 1)
	sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *actor.Started:
			pid <- ctx.Spawn(pacer.Props(pacer.Config{Pin: pin, Screen: s, Tick: 5 * time.Millisecond,
				StepAfter: 30 * time.Millisecond, ClearAfter: 60 * time.Millisecond}))
		case *pacer.Stepped:
			steps <- m.Step
		}
	}))
	p := <-pid
	first := <-s.frames
	if first.Step != 0 || first.PageWidth == 0 {
		t.Fatalf("first frame %+v", first)
	}
	select {
	case got := <-steps:
		if got != 1 {
			t.Fatalf("stepped to %d, want 1 (reduced)", got)
		}
	case <-time.After(actortest.Wait):
		t.Fatal("a tab that acks nothing did not get the reduced picture")
	}
	if n := len(s.frames); n != 0 {
		t.Fatalf("%d more frames went out without an ack", n)
	}
	sys.Root.Send(p, &pacer.Ack{Seq: first.Seq})
	var last handwire.FrameHeader
	for up := false; !up; {
		select {
		case f := <-s.frames:
			if f.Seq <= last.Seq {
				t.Fatalf("frame %d after %d", f.Seq, last.Seq)
			}
			last = f
			sys.Root.Send(p, &pacer.Ack{Seq: f.Seq})
		case st := <-steps:
			up = st == 0
		case <-time.After(actortest.Wait):
			t.Fatal("the quality did not step back up")
		}
	}
}

// A screencast that starts but never sends a picture is started again, a
// bounded number of times, and then the parent hears it failed: the tab
// would otherwise say Connecting… for as long as the take-over lasts.
func TestAScreencastThatBringsNoPictureIsStartedAgain(t *testing.T) {
	for _, c := range []struct {
		name        string
		blank       int  // starts that bring no picture
		picture     bool // a picture reaches the tab; else the parent hears CastFailed
		wantStarted int  // starts made in all
	}{
		{"the second start brings one", 1, true, 2},
		{"none ever does", 100, false, 1 + 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			sys := actortest.System(t)
			tabs, pin := pinned(t, sim.Config{CastFPS: 50, CastsBlank: c.blank})
			s := &screen{frames: make(chan handwire.FrameHeader, 64)}
			failed := make(chan struct{}, 4)
			sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
				switch ctx.Message().(type) {
				case *actor.Started:
					ctx.Spawn(pacer.Props(pacer.Config{Pin: pin, Screen: s, Tick: 5 * time.Millisecond, Blank: 50 * time.Millisecond}))
				case *pacer.CastFailed:
					failed <- struct{}{}
				}
			}))
			select {
			case <-s.frames:
				if !c.picture {
					t.Fatal("a picture came from a screencast that sends none")
				}
			case <-failed:
				if c.picture {
					t.Fatal("the parent heard the screencast failed")
				}
			case <-time.After(actortest.Wait):
				t.Fatal("neither a picture nor a failure")
			}
			if got := tabs.Casts(); got != c.wantStarted {
				t.Fatalf("the screencast was started %d times, want %d", got, c.wantStarted)
			}
		})
	}
}

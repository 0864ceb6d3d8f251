package pacer_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// heldPin is a browser that makes its next picture only once told (as the
// agents' Chromium does): the test hands its frames to the pacer.
type heldPin struct{ sink chan func(*drivers.CastFrame) }

func (p *heldPin) Cast(_ context.Context, _ drivers.CastOptions, sink func(*drivers.CastFrame)) error {
	p.sink <- sink
	return nil
}
func (*heldPin) StopCast(context.Context) error { return nil }
func (*heldPin) Gone() <-chan struct{}          { return nil }
func (*heldPin) Why() *messages.Error           { return nil }
func (*heldPin) Unpin()                         {}

// picture is one frame made at at, which counts its releases.
func picture(at time.Time, released *atomic.Int32) *drivers.CastFrame {
	return &drivers.CastFrame{JPEG: []byte{0xFF, 0xD8, 1}, Release: func() { released.Add(1) },
		Header: handwire.FrameHeader{TimeMs: float64(at.UnixMicro()) / 1000, PageWidth: 400, PageHeight: 300}}
}

// The browser is held to the pacer's rate; the owner's input lets it go
// at once, and the first picture the tab gets after a press is one made
// after it: the one waiting from before and one made before but arriving
// after are both passed over, and passing one over lets the browser make
// the next at once.
func TestAfterAPressTheNextPictureSentIsOneMadeAfterIt(t *testing.T) {
	sys := actortest.System(t)
	pin := &heldPin{sink: make(chan func(*drivers.CastFrame), 1)}
	s := &screen{frames: make(chan handwire.FrameHeader, 16)}
	p := sys.Root.Spawn(pacer.Props(pacer.Config{Pin: pin, Screen: s, Gap: time.Hour, FreshFor: time.Hour}))
	sink := <-pin.sink
	var r1, r2, r3, r4 atomic.Int32
	before := time.Now().Add(-time.Second)

	sink(picture(before, &r1))
	first := <-s.frames
	waitFor(t, "the first picture's release", func() bool { return r1.Load() == 1 })
	sink(picture(before.Add(10*time.Millisecond), &r2))
	time.Sleep(50 * time.Millisecond)
	if r2.Load() != 0 {
		t.Fatal("the browser was let make a picture sooner than the pacer's rate")
	}

	press := time.Now()
	sys.Root.Send(p, &pacer.Fresh{At: press, Drop: true})
	waitFor(t, "the browser let go at the press", func() bool { return r2.Load() == 1 })
	sink(picture(press.Add(-5*time.Millisecond), &r3)) // made before the press, here after it
	// Passed over, it lets the browser make the next at once, the pacer's
	// rate notwithstanding: that next is the one the owner waits for.
	waitFor(t, "the browser let go at once after a picture from before the press", func() bool { return r3.Load() == 1 })
	sink(picture(press.Add(20*time.Millisecond), &r4))
	sys.Root.Send(p, &pacer.Ack{Seq: first.Seq})
	select {
	case got := <-s.frames:
		if want := float64(press.Add(20*time.Millisecond).UnixMicro()) / 1000; got.TimeMs != want {
			t.Fatalf("the tab got a picture made at %.0f after the press at %.0f; want the one made at %.0f",
				got.TimeMs, float64(press.UnixMicro())/1000, want)
		}
	case <-time.After(actortest.Wait):
		t.Fatal("no picture after the ack")
	}
	if n := len(s.frames); n != 0 {
		t.Fatalf("%d more pictures went out", n)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(actortest.Wait); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited for %s", what)
		}
	}
}

// A wheel step's picture may be made before the page says it had the
// step (the page scrolls on its own thread): when the page then makes no
// newer picture, the one waiting from before the step still reaches the
// tab, so a swipe's last scroll is never left undrawn.
func TestAPictureFromBeforeAWheelStepIsSentWhenNoNewerComes(t *testing.T) {
	for _, drop := range []bool{false, true} {
		sys := actortest.System(t)
		pin := &heldPin{sink: make(chan func(*drivers.CastFrame), 1)}
		s := &screen{frames: make(chan handwire.FrameHeader, 16)}
		p := sys.Root.Spawn(pacer.Props(pacer.Config{Pin: pin, Screen: s, Gap: time.Millisecond, FreshFor: 50 * time.Millisecond}))
		sink := <-pin.sink
		var r1, r2 atomic.Int32
		made := time.Now().Add(-time.Second)

		sink(picture(made, &r1))
		first := <-s.frames
		last := made.Add(10 * time.Millisecond) // the swipe's end, on the page
		sink(picture(last, &r2))                // waits: the first is on the wire
		time.Sleep(20 * time.Millisecond)
		sys.Root.Send(p, &pacer.Fresh{At: time.Now(), Drop: drop}) // the step's answer came later
		sys.Root.Send(p, &pacer.Ack{Seq: first.Seq})
		select {
		case got := <-s.frames:
			if want := float64(last.UnixMicro()) / 1000; got.TimeMs != want {
				t.Fatalf("drop %v: the tab got the picture made at %.0f, want the last one, made at %.0f", drop, got.TimeMs, want)
			}
		case <-time.After(actortest.Wait):
			t.Fatalf("drop %v: the page's last picture never reached the tab", drop)
		}
	}
}

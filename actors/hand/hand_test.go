package hand_test

import (
	"context"
	"log/slog"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/hand"
	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// screen is a dashboard tab at the seam the hand owns: it records frames,
// answers pings when asked to, and says whether its sign-in holds.
type screen struct {
	frames  chan handwire.FrameHeader
	ends    chan *messages.Error
	pings   atomic.Int64
	pong    func()
	signout atomic.Bool
}

func newScreen() *screen {
	return &screen{frames: make(chan handwire.FrameHeader, 1024), ends: make(chan *messages.Error, 1)}
}

func (s *screen) Frame(b []byte) {
	h, _, err := handwire.DecodeFrame(b)
	if err == nil {
		s.frames <- h
	}
}
func (s *screen) Ping() {
	s.pings.Add(1)
	if s.pong != nil {
		s.pong()
	}
}
func (s *screen) Check() *messages.Error {
	if s.signout.Load() {
		return &messages.Error{Code: messages.CodeSignInExpired, Message: "signed out"}
	}
	return nil
}
func (s *screen) End(e *messages.Error) {
	select {
	case s.ends <- e:
	default:
	}
}

// world is a hand under a parent that reports what the hand tells it.
type world struct {
	sys     *actor.ActorSystem
	tabs    *sim.Tabs
	hand    *actor.PID
	parent  chan any
	driving chan bool // what the hand told its session of a tab driving
}

func start(t *testing.T, cfg hand.Config, simCfg sim.Config) *world {
	t.Helper()
	w := &world{sys: actortest.System(t), parent: make(chan any, 16), driving: make(chan bool, 16)}
	drv := sim.New(simCfg)
	tabs, err := drv.Open(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	w.tabs = tabs.(*sim.Tabs)
	cfg.Open = func(context.Context) (drivers.Tabs, error) { return tabs, nil }
	cfg.Conversation, cfg.Log = "c1", slog.New(slog.DiscardHandler)
	got := make(chan *actor.PID, 1)
	w.sys.Root.Spawn(actor.PropsFromFunc(func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *actor.Started:
			got <- ctx.Spawn(hand.Props(cfg))
		case *messages.HandEnded:
			w.parent <- m
		case *messages.HandDriving:
			select {
			case w.driving <- m.On:
			default:
			}
		}
	}))
	w.hand = <-got
	t.Cleanup(func() { _ = drv.Close() })
	return w
}

// open attaches s and returns the link, after the first frame (so the
// page's size is known).
func (w *world) open(t *testing.T, s *screen) messages.HandLink {
	t.Helper()
	r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.hand, &messages.HandOpen{Conversation: "c1", Screen: s})
	if r.Error != nil {
		t.Fatalf("open: %+v", r.Error)
	}
	l := r.Result.(*messages.HandOpened).Link
	select {
	case <-s.frames:
	case e := <-s.ends: // a short limit ended it first
		s.ends <- e
	case <-time.After(actortest.Wait):
		t.Fatal("no frame")
	}
	return l
}

// openOn attaches s as a touch screen of width×height and returns the
// link, without waiting for a frame.
func (w *world) openOn(t *testing.T, s *screen, width, height int) messages.HandLink {
	t.Helper()
	r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.hand, &messages.HandOpen{Conversation: "c1", Screen: s, W: width, H: height})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	return r.Result.(*messages.HandOpened).Link
}

func in(t *testing.T, msg string) *handwire.Input {
	t.Helper()
	i, e := handwire.DecodeInput([]byte(msg))
	if e != nil {
		t.Fatalf("%s: %+v", msg, e)
	}
	return i
}

func TestGiveBackRunsQueuedInputThenReleasesWhatIsHeld(t *testing.T) {
	w := start(t, hand.Config{}, sim.Config{CastFPS: 50})
	s := newScreen()
	l := w.open(t, s)
	for _, m := range []string{
		`{"t":"down","x":10,"y":10,"b":"left"}`, `{"t":"move","x":99999,"y":10}`, `{"t":"keydown","k":"Shift"}`,
		`{"t":"move","x":20,"y":20}`, `{"t":"char","k":"x"}`, `{"t":"wheel","x":20,"y":20,"dy":100}`,
	} {
		l.Input(in(t, m))
	}
	if _, err := w.sys.Root.RequestFuture(w.hand, &messages.GiveBack{}, actortest.Wait).Result(); err != nil {
		t.Fatalf("give back: %v", err)
	}
	if e := <-s.ends; e == nil || e.Code != messages.CodeHandEnded {
		t.Fatalf("the tab was told %+v", e)
	}
	var kinds []string
	for _, i := range w.tabs.HandInputs() {
		if i.X > 2000 {
			t.Fatal("a position off the page was forwarded")
		}
		kinds = append(kinds, string(i.Kind)+":"+i.Button+i.Key)
	}
	want := []string{"down:left", "keydown:Shift", "move:", "char:", "wheel:", "up:left", "keyup:Shift"}
	if len(kinds) != len(want) {
		t.Fatalf("the page got %v, want %v", kinds, want)
	}
	for i := range want {
		if kinds[i] != want[i] {
			t.Fatalf("the page got %v, want %v", kinds, want)
		}
	}
	l.Input(in(t, `{"t":"down","x":1,"y":1,"b":"left"}`))
	r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.hand, &messages.HandOpen{Conversation: "c1", Screen: newScreen()})
	if r.Error == nil || r.Error.Code != messages.CodeHandEnded {
		t.Fatalf("a hand given back attached again: %+v", r.Error)
	}
	if n := len(w.tabs.HandInputs()); n != len(want) {
		t.Fatalf("input after the give back reached the page (%d inputs)", n)
	}
}

func TestMovesMayMergeButNothingElseDoes(t *testing.T) {
	w := start(t, hand.Config{}, sim.Config{CastFPS: 50})
	s := newScreen()
	l := w.open(t, s)
	for i := range 200 {
		l.Input(&handwire.Input{Kind: handwire.Move, X: float64(i % 100), Y: 5})
		if i%20 == 0 {
			l.Input(&handwire.Input{Kind: handwire.KeyDown, Key: "Enter"})
			l.Input(&handwire.Input{Kind: handwire.KeyUp, Key: "Enter"})
		}
	}
	l.Input(&handwire.Input{Kind: handwire.Move, X: 77, Y: 7})
	if _, err := w.sys.Root.RequestFuture(w.hand, &messages.GiveBack{}, actortest.Wait).Result(); err != nil {
		t.Fatal(err)
	}
	got := w.tabs.HandInputs()
	keys, moves := 0, 0
	for _, i := range got {
		switch i.Kind {
		case handwire.KeyDown, handwire.KeyUp:
			keys++
		case handwire.Move:
			moves++
		}
	}
	if keys != 20 || moves == 0 || moves > 201 {
		t.Fatalf("the page got %d keys (want 20) and %d moves", keys, moves)
	}
	if last := got[len(got)-1]; last.Kind != handwire.Move || last.X != 77 {
		t.Fatalf("the last move was not kept: %+v", last)
	}
}

// Each way the hand ends on its own: the tab is told why, the session hears.
func TestTheHandEnds(t *testing.T) {
	short := hand.Limits{Tick: 5 * time.Millisecond, LeaseAfter: 5 * time.Millisecond}
	cases := map[string]struct {
		limits hand.Limits
		sim    sim.Config
		pacer  pacer.Config
		act    func(w *world, s *screen, l messages.HandLink)
		code   messages.Code
	}{
		"idle": {limits: hand.Limits{Idle: 30 * time.Millisecond}, code: messages.CodeHandEnded,
			act: func(*world, *screen, messages.HandLink) {}},
		"signed out after input": {code: messages.CodeSignInExpired,
			act: func(_ *world, s *screen, l messages.HandLink) {
				s.signout.Store(true)
				l.Input(&handwire.Input{Kind: handwire.Move, X: 1, Y: 1})
			}},
		"signed out, no input": {limits: hand.Limits{LeaseEvery: 20 * time.Millisecond}, code: messages.CodeSignInExpired,
			act: func(_ *world, s *screen, _ messages.HandLink) { s.signout.Store(true) }},
		// The periodic check is an hour away: only the recheck can end it.
		"signed out, rechecked": {limits: hand.Limits{LeaseEvery: time.Hour}, code: messages.CodeSignInExpired,
			act: func(_ *world, s *screen, l messages.HandLink) {
				s.signout.Store(true)
				l.Recheck()
			}},
		"pings unanswered": {limits: hand.Limits{PingEvery: 10 * time.Millisecond}, code: messages.CodeHandEnded,
			act: func(*world, *screen, messages.HandLink) {}},
		"two hours": {limits: hand.Limits{MaxLife: 50 * time.Millisecond}, code: messages.CodeHandEnded,
			act: func(*world, *screen, messages.HandLink) {}},
		"too far behind": {sim: sim.Config{CastFPS: 100, CastBytes: 64 << 10}, pacer: pacer.Config{MaxBehind: 1 << 20},
			code: messages.CodeHandEnded, act: func(*world, *screen, messages.HandLink) {}},
		"picture never started": {sim: sim.Config{CastFails: true}, code: messages.CodeHandEnded,
			act: func(*world, *screen, messages.HandLink) {}},
		"picture never came": {sim: sim.Config{CastsBlank: 100}, pacer: pacer.Config{Tick: 5 * time.Millisecond, Blank: 20 * time.Millisecond},
			code: messages.CodeHandEnded, act: func(*world, *screen, messages.HandLink) {}},
		"page closed": {code: messages.CodeTabGone,
			act: func(w *world, _ *screen, _ messages.HandLink) { _ = w.tabs.Close(context.Background()) }},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			lim := c.limits
			lim.Tick, lim.LeaseAfter = short.Tick, short.LeaseAfter
			w := start(t, hand.Config{Limits: lim, Pacer: c.pacer}, c.sim)
			s := newScreen()
			l := w.open(t, s)
			if name != "pings unanswered" {
				s.pong = l.Pong
			}
			c.act(w, s, l)
			select {
			case m := <-w.parent:
				if e := m.(*messages.HandEnded).Why; e.Code != c.code {
					t.Fatalf("ended with %+v, want %s", e, c.code)
				}
			case <-time.After(actortest.Wait):
				t.Fatal("the hand did not end")
			}
			if e := <-s.ends; e.Code != c.code {
				t.Fatalf("the tab was told %+v", e)
			}
		})
	}
}

// A second tab is refused; the same tab reconnecting after a drop (before
// the old socket was noticed gone) names its attachment and replaces it.
func TestOneTabAtATimeButAReconnectReplacesItsOwnAttachment(t *testing.T) {
	w := start(t, hand.Config{}, sim.Config{CastFPS: 50})
	first := newScreen()
	r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.hand, &messages.HandOpen{Conversation: "c1", Screen: first})
	if r.Error != nil {
		t.Fatal(r.Error)
	}
	id := r.Result.(*messages.HandOpened).ID
	other := actortest.Ask[*messages.OwnerReply](t, w.sys, w.hand, &messages.HandOpen{Conversation: "c1", Screen: newScreen(), Resume: "not-it"})
	if other.Error == nil || other.Error.Code != messages.CodeHandBusy {
		t.Fatalf("a second tab was answered %+v, want hand_busy", other.Error)
	}
	again := newScreen()
	r2 := actortest.Ask[*messages.OwnerReply](t, w.sys, w.hand, &messages.HandOpen{Conversation: "c1", Screen: again, Resume: id})
	if r2.Error != nil {
		t.Fatalf("the reconnect was answered %+v", r2.Error)
	}
	if e := <-first.ends; e == nil || e.Code != messages.CodeHandEnded {
		t.Fatalf("the dropped tab was told %+v", e)
	}
	select {
	case <-again.frames:
	case <-time.After(actortest.Wait):
		t.Fatal("the reconnected tab got no picture")
	}
}

// frameOf waits for a frame of s whose page is w×h, acking the others.
func frameOf(t *testing.T, s *screen, l messages.HandLink, w, h int) {
	t.Helper()
	for end := time.After(actortest.Wait); ; {
		select {
		case f := <-s.frames:
			l.Input(&handwire.Input{Kind: handwire.Ack, Seq: f.Seq})
			if int(f.PageWidth) == w && int(f.PageHeight) == h {
				return
			}
		case <-end:
			t.Fatalf("no picture of the page at %dx%d", w, h)
		}
	}
}

// A tab on a touch screen has the page laid out at its size, again when
// the phone turns, and the page gets the agent's size back at give back.
func TestATouchScreenHasThePageLaidOutAtItsSizeUntilGiveBack(t *testing.T) {
	w := start(t, hand.Config{}, sim.Config{CastFPS: 50})
	s := newScreen()
	l := w.openOn(t, s, 375, 700)
	frameOf(t, s, l, 375, 700)
	l.Input(in(t, `{"t":"view","w":760,"h":330}`))
	frameOf(t, s, l, 760, 330)
	if _, err := w.sys.Root.RequestFuture(w.hand, &messages.GiveBack{}, actortest.Wait).Result(); err != nil {
		t.Fatal(err)
	}
	if got, want := w.tabs.Fits(), [][2]int{{375, 700}, {760, 330}, {0, 0}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("the page was laid out at %v, want %v", got, want)
	}
}

// A page that answers its layout for the touch screen but keeps its old
// size (as Chromium now and then does) is laid out again once its pictures
// have said the old size for a while; one that never takes the size is
// laid out again a bounded number of times, and driven as it is.
func TestAPageThatKeepsItsOldSizeIsLaidOutAgainForTheTouchScreen(t *testing.T) {
	limits := hand.Limits{Tick: 20 * time.Millisecond, RefitAfter: 100 * time.Millisecond}
	t.Run("taken on the second try", func(t *testing.T) {
		w := start(t, hand.Config{Limits: limits}, sim.Config{CastFPS: 50, FitsLost: 1})
		s := newScreen()
		frameOf(t, s, w.openOn(t, s, 375, 700), 375, 700)
		if got, want := w.tabs.Fits(), [][2]int{{375, 700}, {375, 700}}; !reflect.DeepEqual(got, want) {
			t.Fatalf("the page was laid out at %v, want %v", got, want)
		}
	})
	t.Run("never taken", func(t *testing.T) {
		w := start(t, hand.Config{Limits: limits}, sim.Config{CastFPS: 50, FitsLost: 100})
		s := newScreen()
		l := w.openOn(t, s, 375, 700)
		for end := time.Now().Add(2 * time.Second); time.Now().Before(end); { // 20 checks' worth
			select {
			case f := <-s.frames:
				l.Input(&handwire.Input{Kind: handwire.Ack, Seq: f.Seq})
			case e := <-s.ends:
				t.Fatalf("the hand ended: %+v", e)
			}
		}
		if got, want := len(w.tabs.Fits()), 1+3; got != want {
			t.Fatalf("the page was laid out %d times (%v), want %d: the first and three more", got, w.tabs.Fits(), want)
		}
		l.Input(in(t, `{"t":"down","x":10,"y":10,"b":"left"}`))
		if _, err := w.sys.Root.RequestFuture(w.hand, &messages.GiveBack{}, actortest.Wait).Result(); err != nil {
			t.Fatal(err)
		}
		if got := w.tabs.HandInputs(); len(got) == 0 || got[0].Kind != handwire.Down {
			t.Fatalf("the owner's input after the layouts: %+v, want the press", got)
		}
	})
}

// A layout made again for pictures of the wrong size lays the page out
// at the screen's size when it is sent, not when it was queued: the phone
// turned while it waited behind the owner's own new size.
func TestALayoutMadeAgainFollowsTheScreenTurnedWhileItWaited(t *testing.T) {
	w := start(t, hand.Config{Limits: hand.Limits{Tick: 20 * time.Millisecond, RefitAfter: 100 * time.Millisecond}},
		sim.Config{CastFPS: 50, FitsLost: 1, FitLatency: time.Second})
	s := newScreen()
	l := w.openOn(t, s, 375, 700) // laid out, lost: its pictures say the agent's size
	l.Input(in(t, `{"t":"view","w":760,"h":330}`))
	frameOf(t, s, l, 760, 330)
	time.Sleep(1500 * time.Millisecond) // the layout made again, a second long, has had its time
	if got, want := w.tabs.Fits(), [][2]int{{375, 700}, {760, 330}, {760, 330}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("the page was laid out at %v, want %v: the turned screen's size, twice", got, want)
	}
}

// A second tab is refused unless the owner pressed to drive from it: then
// the hand moves, the first tab is told so, and the session hears a tab
// drives throughout.
func TestATabTakesTheHandOnlyWhenAsked(t *testing.T) {
	w := start(t, hand.Config{}, sim.Config{CastFPS: 50})
	first := newScreen()
	w.open(t, first)
	if on := <-w.driving; !on {
		t.Fatal("the session was not told a tab drives")
	}
	second := newScreen()
	r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.hand, &messages.HandOpen{Conversation: "c1", Screen: second})
	if r.Error == nil || r.Error.Code != messages.CodeHandBusy {
		t.Fatalf("a second tab opening the conversation was answered %+v, want hand_busy", r.Error)
	}
	r = actortest.Ask[*messages.OwnerReply](t, w.sys, w.hand, &messages.HandOpen{Conversation: "c1", Screen: second, Take: true})
	if r.Error != nil {
		t.Fatalf("taking the hand was answered %+v", r.Error)
	}
	if e := <-first.ends; e == nil || e.Code != messages.CodeHandMoved {
		t.Fatalf("the first tab was told %+v, want hand_moved", e)
	}
	select {
	case <-second.frames:
	case <-time.After(actortest.Wait):
		t.Fatal("the tab that took the hand got no picture")
	}
	if got := []bool{<-w.driving, <-w.driving}; !reflect.DeepEqual(got, []bool{false, true}) {
		t.Fatalf("the session heard %v as the hand moved, want [false true]", got)
	}
}

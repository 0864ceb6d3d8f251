package session_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/events/eventstest"
	"github.com/buddi-dev/buddi/messages"
)

// world is one session actor with what it talks to: a real ledger, a sim
// driver, a probe in the controller's place, a bus and a fake clock.
type world struct {
	sys   *actor.ActorSystem
	store *ledger.Store
	drv   *sim.Driver
	ctrl  *actortest.Probe
	bus   *events.Bus
	clock *actortest.Clock
	route *routes.Session // the session's entry in the routing table
	pid   *actor.PID
}

func start(t *testing.T, cfg sim.Config, hand func(string, func(context.Context) (drivers.Tabs, error)) *actor.Props) *world {
	t.Helper()
	return startOf(t, cfg, hand, open{})
}

// startWith is start with the URL policy pol.
func startWith(t *testing.T, cfg sim.Config, pol session.URLPolicy) *world {
	t.Helper()
	return startOf(t, cfg, nil, pol)
}

func startOf(t *testing.T, cfg sim.Config, hand func(string, func(context.Context) (drivers.Tabs, error)) *actor.Props, pol session.URLPolicy) *world {
	t.Helper()
	drv := sim.New(cfg)
	return startOn(t, drv, drv, hand, pol)
}

// startOn is startOf with the session driving drv, which wraps sd.
func startOn(t *testing.T, sd *sim.Driver, drv drivers.Driver, hand func(string, func(context.Context) (drivers.Tabs, error)) *actor.Props, pol session.URLPolicy) *world {
	t.Helper()
	w := &world{sys: actortest.System(t), bus: events.New(), drv: sd, route: &routes.Session{},
		clock: actortest.NewClock(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))}
	var led *actor.PID
	w.store, led = actortest.Ledger(t, w.sys)
	actortest.Write(t, w.sys, led, ledger.Put(ledger.TaskKey("c1"), ledger.Task{Conversation: "c1", Agent: "ada",
		Description: "test", State: ledger.TaskActive, MaxSteps: 80, Expires: w.clock.Now().Add(time.Minute)}))
	w.ctrl = actortest.NewProbe(t, w.sys, func(msg any) any {
		if _, ok := msg.(*messages.SessionEnded); ok {
			return &ledger.Written{}
		}
		return nil
	})
	w.pid = w.sys.Root.Spawn(actor.PropsFromProducer(session.New(session.Config{
		Conversation: "c1", Agent: "ada", Store: w.store, Ledger: led, Controller: w.ctrl.PID,
		Driver: drv, Policy: pol, Bus: w.bus, Route: w.route, Hand: hand, Now: w.clock.Now,
		Log: slog.New(slog.DiscardHandler),
	})))
	return w
}

// open is a URL policy that lets everything through.
type open struct{}

func (open) CheckURL(string, string) error { return nil }
func (open) CheckInput(string) error       { return nil }
func (open) Masked([]string)               {}
func (open) Preview(string) bool           { return false }

func (w *world) act(t *testing.T, in *messages.ActInput) *messages.ToolResult {
	t.Helper()
	call := &messages.ToolCall{Tool: messages.ToolAct, Conversation: "c1", Act: in}
	return actortest.Ask[*messages.ToolResult](t, w.sys, w.pid, &messages.AgentCall{Call: call, Agent: "ada"})
}

// actOn acts as a call the surface answers.
func (w *world) actOn(t *testing.T, surface messages.Surface, in *messages.ActInput) *messages.ToolResult {
	t.Helper()
	call := &messages.ToolCall{Tool: messages.ToolAct, Conversation: "c1", Act: in, Surface: surface}
	return actortest.Ask[*messages.ToolResult](t, w.sys, w.pid, &messages.AgentCall{Call: call, Agent: "ada"})
}

func (w *world) owner(t *testing.T, msg any) *messages.OwnerReply {
	t.Helper()
	return actortest.Ask[*messages.OwnerReply](t, w.sys, w.pid, msg)
}

func wantCode(t *testing.T, r *messages.ToolResult, code messages.Code) {
	t.Helper()
	var got messages.Code
	if r.Error != nil {
		got = r.Error.Code
	}
	if got != code {
		t.Fatalf("got %q (%+v), want %q", got, r.Error, code)
	}
}

func TestAnActIsAnsweredAndPublishedAsAStep(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	steps := w.bus.Subscribe(events.Filter{Kinds: messages.KindStep})
	defer steps.Close()
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	r := w.act(t, &messages.ActInput{Action: "observe", Screenshot: true})
	obs, ok := r.Result.(*messages.Observation)
	if !ok || obs.URL != sim.Origin+"/p/1" || obs.StepsLeft != 78 {
		t.Fatalf("observe answered %#v", r.Result)
	}
	step := eventstest.Await(t, steps, "for the observe step", func(ev messages.Event) bool {
		return ev.(*messages.StepTaken).Action == "observe"
	}).(*messages.StepTaken)
	if step.StepsUsed != 2 || step.Outcome != "observed" {
		t.Fatalf("step = %+v", step)
	}
}

// hand stands in for the remote hand: it tells the test when it is asked to
// let go and lets go only when the test says.
type hand struct {
	asked chan struct{}
	letGo chan struct{}
}

func (h *hand) Receive(ctx actor.Context) {
	if _, ok := ctx.Message().(*messages.GiveBack); ok {
		sender := ctx.Sender()
		h.asked <- struct{}{}
		go func() {
			<-h.letGo
			ctx.ActorSystem().Root.Send(sender, &messages.HandReleased{})
		}()
	}
}

func TestResumeWaitsForTheHandToLetGo(t *testing.T) {
	h := &hand{asked: make(chan struct{}, 1), letGo: make(chan struct{})}
	w := start(t, sim.Config{}, func(string, func(context.Context) (drivers.Tabs, error)) *actor.Props {
		return actor.PropsFromProducer(func() actor.Actor { return h })
	})
	if r := w.owner(t, &messages.TakeOver{Conversation: "c1"}); r.Error != nil {
		t.Fatal(r.Error)
	}
	resumed := w.sys.Root.RequestFuture(w.pid, &messages.Resume{Conversation: "c1"}, actortest.Wait)
	<-h.asked
	// The hand has not let go: the page is still the owner's.
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), messages.CodeTakenOver)
	close(h.letGo)
	res, err := resumed.Result()
	if r, ok := res.(*messages.OwnerReply); err != nil || !ok || r.Error != nil {
		t.Fatalf("resume answered %#v %v", res, err)
	}
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "")
}

func TestTheTaskExpiresByTheClock(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "")
	w.clock.Advance(2 * time.Minute)
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), messages.CodeExpired)
	for msg := range w.ctrl.Got {
		if e, ok := msg.(*messages.SessionEnded); ok {
			if e.Code != messages.CodeExpired {
				t.Fatalf("the controller heard %+v", e)
			}
			break
		}
	}
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), messages.CodeNoTask)
}

func TestStopEndsTheActionInFlightAndClosesTheTabs(t *testing.T) {
	w := start(t, sim.Config{LoadLatency: time.Hour}, nil)
	working := w.bus.Subscribe(events.Filter{Kinds: messages.KindSession})
	defer working.Close()
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "")
	inflight := w.sys.Root.RequestFuture(w.pid, &messages.AgentCall{Agent: "ada", Call: &messages.ToolCall{
		Tool: messages.ToolAct, Act: &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/2"}}}, actortest.Wait)
	eventstest.Await(t, working, "for the session to be working", func(ev messages.Event) bool {
		return ev.(*messages.SessionChanged).Session.State == messages.StateWorking
	})
	if r := w.owner(t, &messages.StopAll{}); r.Error != nil {
		t.Fatal(r.Error)
	}
	res, err := inflight.Result()
	if r, ok := res.(*messages.ToolResult); err != nil || !ok || r.Error == nil || r.Error.Code != messages.CodeStopped {
		t.Fatalf("the action in flight was answered %#v %v", res, err)
	}
	if w.drv.Conversation("c1") != nil {
		t.Fatal("the Stop was answered before the conversation's tabs closed")
	}
}

func TestAMessageSentAsAValueIsCountedNotLost(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	before := actors.UnhandledCount()
	w.sys.Root.Send(w.pid, messages.TakeOver{Conversation: "c1"})    // a value, not a pointer
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "") // answered after it, in order
	if actors.UnhandledCount() != before+1 {
		t.Fatalf("unhandled count went from %d to %d, want one more", before, actors.UnhandledCount())
	}
}

// gatedClose is a driver whose tabs, when closed, say so on closing and
// finish closing only once the test closes letGo.
type gatedClose struct {
	*sim.Driver
	closing chan struct{}
	letGo   chan struct{}
}

type gatedTabs struct {
	drivers.Tabs
	g *gatedClose
}

func (g *gatedClose) Open(ctx context.Context, conversation string) (drivers.Tabs, error) {
	tabs, err := g.Driver.Open(ctx, conversation)
	if err != nil {
		return nil, err
	}
	return gatedTabs{tabs, g}, nil
}

func (t gatedTabs) Close(ctx context.Context) error {
	t.g.closing <- struct{}{}
	<-t.g.letGo
	return t.Tabs.Close(ctx)
}

// startGated starts a world whose tabs close only when the test lets them.
func startGated(t *testing.T) (*world, *gatedClose) {
	t.Helper()
	sd := sim.New(sim.Config{})
	g := &gatedClose{Driver: sd, closing: make(chan struct{}, 1), letGo: make(chan struct{})}
	t.Cleanup(g.open)
	return startOn(t, sd, g, nil, open{}), g
}

func (g *gatedClose) open() {
	select {
	case <-g.letGo:
	default:
		close(g.letGo)
	}
}

// endingCall sends an observe that ends the task and checks that its answer
// waits for the conversation's tabs to close; it returns that answer.
func endingCall(t *testing.T, w *world, g *gatedClose) *messages.ToolResult {
	t.Helper()
	agent := actortest.NewProbe(t, w.sys, nil)
	call := &messages.ToolCall{Tool: messages.ToolAct, Conversation: "c1", Act: &messages.ActInput{Action: "observe"}}
	w.sys.Root.RequestWithCustomSender(w.pid, &messages.AgentCall{Call: call, Agent: "ada"}, agent.PID)
	<-g.closing
	// Once the session answered a later call, anything it sent the agent
	// for the first is in the agent's mailbox ahead of the marker.
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), messages.CodeNoTask)
	w.sys.Root.Send(agent.PID, "marker")
	if got := <-agent.Got; got != "marker" {
		t.Fatalf("the agent was answered %#v while the conversation's tabs were still closing", got)
	}
	g.open()
	r, ok := (<-agent.Got).(*messages.ToolResult)
	if !ok {
		t.Fatal("the agent got no tool result")
	}
	if w.drv.Conversation("c1") != nil {
		t.Fatal("the agent was answered before the conversation's tabs closed")
	}
	return r
}

// The agent asks for a new task as soon as it hears that its budget is
// spent, and the driver hands a new session of the conversation the same
// tabs while they are open: the answer must wait until they are closed, or
// the ending session closes the new session's tabs under it (every act of
// the new task then failed with tab_gone).
func TestASpentBudgetIsAnsweredOnceTheTabsAreClosed(t *testing.T) {
	w, g := startGated(t)
	for range 80 {
		wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "")
	}
	wantCode(t, endingCall(t, w, g), messages.CodeBudgetSpent)
}

func TestAnExpiredTaskIsAnsweredOnceTheTabsAreClosed(t *testing.T) {
	w, g := startGated(t)
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "")
	w.clock.Advance(2 * time.Minute)
	wantCode(t, endingCall(t, w, g), messages.CodeExpired)
}

// The controller frees the conversation for a new task when it hears of the
// end, so it hears only once the tabs are closed: the owner released a
// session, the agent heard no_task from the controller on its next call and
// asked for a new task, whose session got the tabs still open and lost them.
func TestTheControllerHearsOfTheEndOnceTheTabsAreClosed(t *testing.T) {
	w, g := startGated(t)
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), "")
	released := w.sys.Root.RequestFuture(w.pid, &messages.Release{Conversation: "c1"}, actortest.Wait)
	<-g.closing
	// Once the session answered a later call, anything it sent the
	// controller for the release is in its mailbox ahead of the marker.
	wantCode(t, w.act(t, &messages.ActInput{Action: "observe"}), messages.CodeNoTask)
	w.sys.Root.Send(w.ctrl.PID, "marker")
	for msg := range w.ctrl.Got {
		if msg == "marker" {
			break
		}
		if _, ok := msg.(*messages.SessionEnded); ok {
			t.Fatal("the controller heard of the end while the conversation's tabs were still closing")
		}
	}
	g.open()
	res, err := released.Result()
	if r, ok := res.(*messages.OwnerReply); err != nil || !ok || r.Error != nil {
		t.Fatalf("the release answered %#v %v", res, err)
	}
	for msg := range w.ctrl.Got {
		if _, ok := msg.(*messages.SessionEnded); ok {
			break
		}
	}
}

// An observation of a blank tab says so, and what to do, in its text; an
// observation of a page does not.
func TestAnObservationOfABlankTabSaysWhatToDo(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	text := func() string {
		t.Helper()
		r := w.act(t, &messages.ActInput{Action: "observe"})
		wantCode(t, r, "")
		obs, ok := r.Result.(*messages.Observation)
		if !ok {
			t.Fatalf("observe answered %#v", r.Result)
		}
		return obs.Text
	}
	const says = "This tab is blank"
	if got := text(); !strings.Contains(got, says) || !strings.HasPrefix(got, "Observed ") || strings.HasSuffix(got, "\n") {
		t.Fatalf("an observation of a new tab reads %q; want its time, then that it is blank (with no line break after, as a fence has none)", got)
	}
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	if got := text(); strings.Contains(got, says) {
		t.Fatalf("an observation of a page says it is blank: %q", got)
	}
}

// A session whose tabs were closed under it (the sim's whole mode closed,
// or an ended session of the conversation closed them late) is told so in a
// sentence that says what to do, and its next call opens new tabs: it does
// not pause on every act until its budget is spent.
func TestTabsClosedUnderTheSessionOpenAgain(t *testing.T) {
	w := start(t, sim.Config{}, nil)
	wantCode(t, w.act(t, &messages.ActInput{Action: "navigate", URL: sim.Origin + "/p/1"}), "")
	if err := w.drv.Conversation("c1").Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := w.act(t, &messages.ActInput{Action: "observe"})
	wantCode(t, r, messages.CodeNoBrowser)
	if want := "This conversation's tabs were closed; observe again to open a new blank tab."; r.Error.Message != want {
		t.Fatalf("the agent read %q, want %q", r.Error.Message, want)
	}
	r = w.act(t, &messages.ActInput{Action: "observe"})
	wantCode(t, r, "")
	if obs, ok := r.Result.(*messages.Observation); !ok || obs.URL != sim.BlankURL {
		t.Fatalf("observe after the tabs closed answered %#v", r.Result)
	}
}

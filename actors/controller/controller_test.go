package controller_test

import (
	"log/slog"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/actors/stop"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/events/eventstest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

type world struct {
	sys    *actor.ActorSystem
	clock  *actortest.Clock
	store  *ledger.Store
	routes *routes.Table
	bus    *events.Bus
	mode   *sim.Mode
	pid    *actor.PID
	stop   *actor.PID // the owner's Stop, beside the controller
}

func start(t *testing.T) *world {
	t.Helper()
	return startWith(t, func(*controller.Config) {})
}

// startWith is start with the controller's config changed by set.
func startWith(t *testing.T, set func(*controller.Config)) *world {
	t.Helper()
	w := &world{sys: actortest.System(t), routes: routes.New(), bus: events.New(), mode: sim.NewMode(sim.Config{}, 1)}
	var led *actor.PID
	w.store, led = actortest.Ledger(t, w.sys)
	board, err := stop.Open(w.store, false)
	if err != nil {
		t.Fatal(err)
	}
	w.stop = w.sys.Root.Spawn(stop.Props(stop.Config{Board: board, Ledger: led, Bus: w.bus}))
	t.Cleanup(func() { _ = w.sys.Root.PoisonFuture(w.stop).Wait() })
	w.clock = actortest.NewClock(time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC))
	cfg := controller.Config{Store: w.store, Ledger: led, Mode: w.mode,
		Routes: w.routes, Bus: w.bus, Now: w.clock.Now, Log: slog.New(slog.DiscardHandler), Stops: board, Stop: w.stop}
	set(&cfg)
	w.pid = w.sys.Root.Spawn(controller.Props(cfg))
	t.Cleanup(func() { _ = w.sys.Root.PoisonFuture(w.pid).Wait() })
	return w
}

// owner answers an owner control as the gateway sends it: the Stop and
// resume of all access to the stop actor, the rest to the controller.
func (w *world) owner(t *testing.T, msg any) messages.Answer {
	t.Helper()
	to := w.pid
	switch msg.(type) {
	case *messages.StopAll, *messages.ResumeAll:
		to = w.stop
	}
	r := actortest.Ask[*messages.OwnerReply](t, w.sys, to, msg)
	if r.Error != nil {
		t.Fatalf("%T: %v", msg, r.Error)
	}
	return r.Result
}

func (w *world) tool(t *testing.T, token string, in *messages.ActInput) *messages.ToolResult {
	t.Helper()
	return actortest.Ask[*messages.ToolResult](t, w.sys, w.pid, &messages.ToolCall{TokenHash: secret.Hash(token),
		Tool: messages.ToolAct, Conversation: "c1", Act: in})
}

func TestAnAgentWithATaskIsRoutedToItsSession(t *testing.T) {
	w := start(t)
	added := w.owner(t, &messages.AddAgent{Name: "ada"}).(*messages.AgentAdded)
	task := w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"}).(*messages.TaskView)
	if task.State != messages.TaskActive || task.MaxSteps != messages.DefaultSteps {
		t.Fatalf("task = %+v", task)
	}
	call := &messages.ToolCall{TokenHash: secret.Hash(added.Token), Tool: messages.ToolAct, Conversation: "c1",
		Act: &messages.ActInput{Action: "observe"}}
	if _, agent, ok := w.routes.Direct(call); !ok || agent != "ada" {
		t.Fatal("the routing table does not send ada's call to her session")
	}
	if r := w.tool(t, added.Token, call.Act); r.Error != nil {
		t.Fatalf("through the controller: %v", r.Error)
	}
	if r := w.tool(t, "ba_stranger", call.Act); r.Error == nil || r.Error.Code != messages.CodeUnauthorized {
		t.Fatalf("an unknown token: %+v", r.Error)
	}
	if list := w.owner(t, &messages.ListSessions{}).(messages.SessionList); len(list) != 1 || list[0].StepsUsed != 1 {
		t.Fatalf("sessions = %+v", list)
	}
}

func TestAMessageTheControllerDoesNotKnowIsCounted(t *testing.T) {
	w := start(t)
	before := actors.UnhandledCount()
	w.sys.Root.Send(w.pid, messages.ListTasks{}) // a value, not a pointer
	w.owner(t, &messages.ListTasks{})
	if actors.UnhandledCount() != before+1 {
		t.Fatalf("unhandled went from %d to %d, want one more", before, actors.UnhandledCount())
	}
}

func TestReleaseEndsTheTaskAndTellsSubscribers(t *testing.T) {
	w := start(t)
	w.owner(t, &messages.AddAgent{Name: "ada"})
	sessions := w.bus.Subscribe(events.Filter{Kinds: messages.KindSession, Conversation: "c1"})
	defer sessions.Close()
	w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"})
	w.owner(t, &messages.Release{Conversation: "c1"})
	eventstest.Await(t, sessions, "for c1's session to end", func(ev messages.Event) bool {
		return ev.(*messages.SessionChanged).Ended
	})
	if task, _, _ := w.store.Task("c1"); task.State != messages.TaskEnded {
		t.Fatalf("the released task is %q in the ledger", task.State)
	}
	w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "again"})
}

// The end of an earlier task of a conversation, arriving late, ends none:
// the task running now goes on.
func TestALateEndOfAnEarlierTaskLeavesTheNewerOneRunning(t *testing.T) {
	w := start(t)
	added := w.owner(t, &messages.AddAgent{Name: "ada"}).(*messages.AgentAdded)
	started := w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"}).(*messages.TaskView)
	actortest.Ask[*ledger.Written](t, w.sys, w.pid, &messages.SessionEnded{Conversation: "c1", Code: messages.CodeReleased,
		Reason: "an earlier task's end", TaskCreated: started.Created.Add(-time.Hour)})
	if r := w.tool(t, added.Token, &messages.ActInput{Action: "observe"}); r.Error != nil {
		t.Fatalf("after an earlier task's late end the running task answers %v", r.Error)
	}
	if task, _, _ := w.store.Task("c1"); task.State != messages.TaskActive {
		t.Fatalf("the running task is %q in the ledger", task.State)
	}
}

// A task adopted from a member that was lost goes on from the steps etcd
// says it used: its session counts on from there, and the budget ends
// where it would have.
func TestAnAdoptedTaskGoesOnFromTheStepsItUsed(t *testing.T) {
	w := start(t)
	added := w.owner(t, &messages.AddAgent{Name: "ada"}).(*messages.AgentAdded)
	agents, err := w.store.Agents()
	if err != nil || len(agents) != 1 {
		t.Fatalf("agents = %+v, %v", agents, err)
	}
	at := time.Date(2030, 1, 1, 11, 0, 0, 0, time.UTC)
	task := ledger.Task{Conversation: "c1", Agent: "ada", AgentID: agents[0].ID, Description: "look", State: messages.TaskActive,
		MaxSteps: 8, Lifetime: 2 * time.Hour, Created: at, Started: at, Expires: at.Add(2 * time.Hour)}
	r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.pid, &controller.Adopt{Task: task, StepsUsed: 6})
	if r.Error != nil {
		t.Fatalf("adopt: %v", r.Error)
	}
	res := w.tool(t, added.Token, &messages.ActInput{Action: "observe"})
	if obs, ok := res.Result.(*messages.Observation); !ok || obs.StepsLeft != 1 {
		t.Fatalf("the first observe after the move answered %+v (%v); want 1 of 8 steps left", res.Result, res.Error)
	}
	w.tool(t, added.Token, &messages.ActInput{Action: "observe"})
	if res := w.tool(t, added.Token, &messages.ActInput{Action: "observe"}); res.Error == nil || res.Error.Code != messages.CodeBudgetSpent {
		t.Fatalf("the ninth step answered %+v; want budget_spent", res.Error)
	}
}

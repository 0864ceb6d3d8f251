package gateway_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/gateway"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// said is an answer that says who gave it, in its message.
func said(who string) *messages.ToolResult { return messages.Fail(messages.CodeBadInput, who) }

// echo answers every call with its answerer's name and the conversation.
func echo(name string) actor.ReceiveFunc {
	return func(ctx actor.Context) {
		switch m := ctx.Message().(type) {
		case *messages.ToolCall:
			ctx.Respond(said(name + " " + m.Conversation))
		case *messages.AgentCall:
			ctx.Respond(said(name + " " + m.Call.Conversation + " for " + m.Agent))
		}
	}
}

// routed starts a gateway whose controller echoes, with agent ada's token
// "h" routed straight to session for conversation c1.
func routed(t *testing.T, session actor.ReceiveFunc) (*gateway.Gateway, *actor.ActorSystem, *actor.PID) {
	t.Helper()
	sys := actortest.System(t)
	ctl := sys.Root.Spawn(actor.PropsFromFunc(echo("controller")))
	s := sys.Root.Spawn(actor.PropsFromFunc(session))
	table := routes.New()
	table.PutAgent("h", routes.Agent{ID: "a1", Name: "ada", Grants: []string{"browser.*"}})
	table.PutSession("c1", &routes.Session{PID: s, Agent: "ada", AgentID: "a1"})
	return gateway.New(sys, ctl, ctl, table, events.New()), sys, s
}

func call(conv string) *messages.ToolCall {
	return &messages.ToolCall{TokenHash: "h", Conversation: conv, Tool: messages.ToolAct, Act: &messages.ActInput{Action: "observe"}}
}

func tool(t *testing.T, g *gateway.Gateway, d time.Duration, c *messages.ToolCall) *messages.Error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	res, e := g.Tool(ctx, c)
	if e != nil {
		return e
	}
	return res.Error
}

// Every concurrent caller gets its own answer: the routed session's for
// its conversation, the controller's for the others.
func TestToolCallersGetTheirOwnAnswers(t *testing.T) {
	g, _, _ := routed(t, echo("session"))
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			conv, want := fmt.Sprintf("c%d", i%4), fmt.Sprintf("controller c%d", i%4)
			if i%4 == 1 {
				want = "session c1 for ada"
			}
			if e := tool(t, g, actortest.Wait, call(conv)); e.Message != want {
				t.Errorf("call %d answered %q, want %q", i, e.Message, want)
			}
		})
	}
	wg.Wait()
}

// A call whose session has gone reaches the controller, which decides.
func TestToolForAGoneSessionGoesToTheController(t *testing.T) {
	g, sys, s := routed(t, echo("session"))
	if err := sys.Root.StopFuture(s).Wait(); err != nil {
		t.Fatal(err)
	}
	if e := tool(t, g, actortest.Wait, call("c1")); e.Message != "controller c1" {
		t.Fatalf("answered %q, want the controller's", e.Message)
	}
}

// A call unanswered by its deadline times out, and the answer that comes
// after it is not taken for the next call's.
func TestToolTimesOutAndItsLateAnswerGoesNowhere(t *testing.T) {
	var late *actor.PID
	g, _, _ := routed(t, func(ctx actor.Context) {
		if _, ok := ctx.Message().(*messages.AgentCall); !ok {
			return
		}
		if late == nil {
			late = ctx.Sender() // answered only with the next call
			return
		}
		ctx.Send(late, said("late"))
		ctx.Respond(said("second"))
	})
	if e := tool(t, g, 50*time.Millisecond, call("c1")); e.Code != messages.CodeTimeout {
		t.Fatalf("the unanswered call got %s %q, want timeout", e.Code, e.Message)
	}
	if e := tool(t, g, actortest.Wait, call("c1")); e.Message != "second" {
		t.Fatalf("the next call answered %q, want its own answer", e.Message)
	}
}

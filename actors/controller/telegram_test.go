package controller_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/events/eventstest"
	"github.com/buddi-dev/buddi/messages"
)

func TestATaskStartedFromTelegramBindsItsConversationAndItsSessionTakesPictures(t *testing.T) {
	w := start(t)
	w.owner(t, &messages.AddAgent{Name: "ada"})
	w.owner(t, &messages.PairTelegram{User: 7, Chat: 7, Name: "@ada"})
	changes := w.bus.Subscribe(events.Filter{Kinds: messages.KindTelegram})
	defer changes.Close()
	w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look", Surface: messages.SurfaceTelegram})
	eventstest.Await(t, changes, "for c1 to be bound", func(ev messages.Event) bool {
		v := ev.(*messages.TelegramChanged).View
		return len(v.Bound) == 1 && v.Bound[0] == "c1"
	})
	if b, err := w.store.Bound(); err != nil || len(b) != 1 || b[0].Conversation != "c1" {
		t.Fatalf("the ledger holds bindings %+v (%v)", b, err)
	}
}

func TestBindingTellsTheRunningSessionAndTheRefusalsFollow(t *testing.T) {
	w := start(t)
	added := w.owner(t, &messages.AddAgent{Name: "ada"}).(*messages.AgentAdded)
	w.owner(t, &messages.StartTask{Agent: "ada", Conversation: "c1", Description: "look"})
	steps := w.bus.Subscribe(events.Filter{Kinds: messages.KindStep})
	defer steps.Close()
	if r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.pid, &messages.BindTelegram{Conversation: "c1", Bound: true}); r.Error == nil || r.Error.Code != messages.CodeNotPaired {
		t.Fatalf("binding with no chat paired: %+v", r.Error)
	}
	w.owner(t, &messages.PairTelegram{User: 7, Chat: 7})
	v := w.owner(t, &messages.BindTelegram{Conversation: "c1", Bound: true}).(*messages.TelegramView)
	if !v.Paired || len(v.Bound) != 1 {
		t.Fatalf("after binding: %+v", v)
	}
	w.tool(t, added.Token, &messages.ActInput{Action: "navigate", URL: "https://sim.localhost/p/1"})
	step := eventstest.Await(t, steps, "for the navigate", func(messages.Event) bool { return true }).(*messages.StepTaken)
	if len(step.Picture) == 0 {
		t.Fatal("a session whose conversation was bound while it ran takes no pictures")
	}
	w.owner(t, &messages.StopAll{})
	r := w.tool(t, added.Token, &messages.ActInput{Action: "observe"})
	if r.Error == nil || !strings.Contains(r.Error.Message, "/browser resume") {
		t.Fatalf("a bound conversation's agent during a Stop reads %+v", r.Error)
	}
	w.owner(t, &messages.UnpairTelegram{})
	r = w.tool(t, added.Token, &messages.ActInput{Action: "observe"})
	if r.Error == nil || strings.Contains(r.Error.Message, "Telegram") {
		t.Fatalf("after unpairing the agent reads %+v", r.Error)
	}
	if v := w.owner(t, &messages.GetTelegram{}).(*messages.TelegramView); v.Paired || len(v.Bound) != 0 {
		t.Fatalf("after unpairing: %+v", v)
	}
}

func TestPairingsFromGroupsAreRefused(t *testing.T) {
	w := start(t)
	r := actortest.Ask[*messages.OwnerReply](t, w.sys, w.pid, &messages.PairTelegram{User: 7, Chat: -1007})
	if r.Error == nil || r.Error.Code != messages.CodeBadInput {
		t.Fatalf("a group chat was paired: %+v", r)
	}
}

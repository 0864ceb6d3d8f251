package telegram_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// Everything from anyone but the owner in the owner's chat is dropped
// without an answer: the owner's /browser after it is answered, so the bot
// read all of it first.
func TestStrangersAndUpdatesWithoutASenderAreIgnored(t *testing.T) {
	r := start(t, options{})
	token := r.agentIn(t, "c1")
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	r.photo(t, 1)
	r.fake.Push(
		telegramtest.Text(stranger, "/browser stop"),
		telegramtest.Text(stranger, "/browser release"),
		telegramtest.Text(stranger, "/start not-a-code"),
		telegramtest.Text(stranger, "hello"),
		telegramtest.Press(stranger, "q1", 100, "b1:000000000000:start"),
		telegramtest.InGroup(owner, -100777, "/browser stop"), // the owner, but not in the paired chat
		telegramtest.Anonymous(-100555, "/browser stop"),
		map[string]any{"message": map[string]any{"message_id": 5, "date": 1, "text": "/browser stop"}}, // no chat, no sender
		map[string]any{"callback_query": map[string]any{"id": "q2", "data": "b1:x:start"}},             // no sender
		map[string]any{"edited_message": map[string]any{"message_id": 6}},
	)
	r.fake.Push(telegramtest.Text(owner, "/browser"))
	state, _ := r.awaitText(t, "Mode: sim")
	if !strings.Contains(state, "Browser access is on") || !strings.Contains(state, "c1 (ada): ready: the agent may act") {
		t.Fatalf("after the strangers, the state is %q", state)
	}
	for _, c := range r.fake.Calls("sendMessage", "answerCallbackQuery", "sendPhoto") {
		if id := c.Fields["chat_id"]; id != "" && id != "4242" {
			t.Fatalf("the bot answered chat %s: %q", id, c.Fields["text"])
		}
		if c.Method == "answerCallbackQuery" {
			t.Fatalf("the bot answered a stranger's button: %v", c.Fields)
		}
	}
	var list messages.SessionList
	r.Must(t, "GET", "/api/browser/sessions", nil).Decode(&list)
	if len(list) != 1 || list[0].Conversation != "c1" {
		t.Fatalf("sessions after the strangers: %+v", list)
	}
}

func TestAFloodOfUpdatesIsReadAndDropped(t *testing.T) {
	r := start(t, options{})
	r.pair(t)
	var flood []map[string]any
	for i := range 3000 {
		u := telegramtest.User{ID: int64(10000 + i%50), Name: "x"}
		flood = append(flood, telegramtest.Text(u, "/browser stop"))
	}
	r.fake.Push(flood...)
	r.fake.PushRaw(`{"update_id": %d, "message": "not an object"}`)
	r.fake.Push(telegramtest.Text(owner, "/browser"))
	r.awaitText(t, "Browser access is on")
	if n := len(r.fake.Calls("sendMessage")); n != 2 {
		t.Fatalf("%d messages sent for a flood of strangers and one /browser; want the welcome and the state", n)
	}
}

package telegram_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

func TestABoundConversationStaysBoundUnderItsNewIdAfterAMove(t *testing.T) {
	r := start(t, options{})
	token := r.agentIn(t, "c1")
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	oldID := r.photo(t, 1).MessageID

	r.Must(t, "POST", "/api/browser/move", map[string]any{"conversation": "c1", "to": "c2"})
	var v messages.TelegramView
	r.Must(t, "GET", "/api/telegram", nil).Decode(&v)
	if !slices.Equal(v.Bound, []string{"c2"}) {
		t.Fatalf("after the move the chat is bound to %v, want [c2]", v.Bound)
	}

	// The new id's steps reach the chat, with a take-over link to c2.
	r.act(t, token, "c2", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/2"})
	if c := r.photo(t, 2).Fields["caption"]; !strings.Contains(c, "Page 2") || !strings.Contains(c, "/chat/ada/c2") {
		t.Fatalf("the step after the move was sent as %q, want c2's page 2 with c2's link", c)
	}
	// /browser lists the session under c2.
	r.fake.Push(telegramtest.Text(owner, "/browser"))
	r.awaitText(t, "\nc2 (ada): ready")

	// A control sent as a reply to a photo of c1 says where it went.
	r.fake.Push(telegramtest.Reply(owner, "/browser release", oldID))
	r.awaitText(t, "moved to c2")
	var list messages.SessionList
	r.Must(t, "GET", "/api/browser/sessions", nil).Decode(&list)
	if len(list) != 1 || list[0].Conversation != "c2" {
		t.Fatalf("a control on c1's photo changed the sessions to %v; c2's session must stay", list)
	}
}

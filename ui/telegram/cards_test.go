package telegram_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// card waits for a card whose text holds want, and returns it with its
// buttons.
func (r *rig) card(t testing.TB, want string) (telegramtest.Call, map[string]string) {
	t.Helper()
	c, _ := r.fake.Await(t, "sendMessage", 0, "card "+want, func(c telegramtest.Call) bool {
		return strings.Contains(c.Fields["text"], want)
	})
	return c, buttons(t, c)
}

// press presses a button as u and returns the answer to the press.
func (r *rig) press(t testing.TB, u telegramtest.User, id string, msg int, data string) string {
	t.Helper()
	r.fake.Push(telegramtest.Press(u, id, msg, data))
	c, _ := r.fake.Await(t, "answerCallbackQuery", 0, "for "+id, func(c telegramtest.Call) bool {
		return c.Fields["callback_query_id"] == id
	})
	return c.Fields["text"]
}

func TestATaskRequestStartedByButtonBindsItsConversation(t *testing.T) {
	r := start(t, options{})
	r.pair(t)
	token := r.AddAgent(t, "ada", false)
	daemontest.WantCode(t, r.Tool(t, token, "browser.task", "c9", map[string]any{"description": "find the opening hours"}), "")
	card, b := r.card(t, "ada asks for a browser task in conversation c9")
	if !strings.Contains(card.Fields["text"], "find the opening hours") || b["Start it"] == "" || b["Reject"] == "" {
		t.Fatalf("the card %q with buttons %v", card.Fields["text"], b)
	}
	if got := r.press(t, owner, "q-forged", card.MessageID, "b1:ffffffffffff:start"); !strings.Contains(got, "no longer current") {
		t.Fatalf("forged data was answered %q", got)
	}
	if got := r.press(t, owner, "q-kind", card.MessageID, strings.Replace(b["Start it"], ":start", ":always", 1)); !strings.Contains(got, "no longer current") {
		t.Fatalf("a site's choice on a task's card was answered %q", got)
	}
	if got := r.press(t, owner, "q1", card.MessageID, b["Start it"]); !strings.Contains(got, "Started from Telegram") {
		t.Fatalf("Start it was answered %q", got)
	}
	edit, _ := r.fake.Await(t, "editMessageText", 0, "closing the card", func(telegramtest.Call) bool { return true })
	if edit.Fields["message_id"] != itoa(card.MessageID) || edit.Fields["reply_markup"] != "" {
		t.Fatalf("the card's edit: %v", edit.Fields)
	}
	if got := r.press(t, owner, "q2", card.MessageID, b["Start it"]); !strings.Contains(got, "no longer current") {
		t.Fatalf("a card pressed twice was answered %q", got)
	}
	var v messages.TelegramView
	r.Must(t, "GET", "/api/telegram", nil).Decode(&v)
	if len(v.Bound) != 1 || v.Bound[0] != "c9" {
		t.Fatalf("bound after a task started from Telegram: %v", v.Bound)
	}
	r.act(t, token, "c9", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	r.photo(t, 1)
}

func TestATaskRequestRejectedByButton(t *testing.T) {
	r := start(t, options{})
	r.pair(t)
	token := r.AddAgent(t, "ada", false)
	r.Tool(t, token, "browser.task", "c8", map[string]any{"description": "book a table"})
	card, b := r.card(t, "conversation c8")
	if got := r.press(t, owner, "q1", card.MessageID, b["Reject"]); got != "Rejected." {
		t.Fatalf("Reject was answered %q", got)
	}
	daemontest.WantCode(t, r.Act(t, token, "c8", map[string]any{"action": "observe"}), "task_refused")
}

func TestASiteApprovedOnceByButton(t *testing.T) {
	r := start(t, options{cfg: func(c *config.Config) { c.SiteApproval = "ask" }, sim: &sim.Config{Hosts: []string{"shop.example.com"}}})
	token := r.agentIn(t, "c1")
	nav := map[string]any{"action": "navigate", "url": "https://shop.example.com/p/1"}
	daemontest.WantCode(t, r.Act(t, token, "c1", nav), "approval_required")
	card, b := r.card(t, "ada wants to open example.com in conversation c1")
	if b["Once"] == "" || b["Always"] == "" || b["Reject"] == "" {
		t.Fatalf("site card buttons %v", b)
	}
	r.fake.Push(telegramtest.Press(stranger, "q-stranger", card.MessageID, b["Always"]))
	if got := r.press(t, owner, "q1", card.MessageID, b["Once"]); !strings.Contains(got, "Allowed once") {
		t.Fatalf("Once was answered %q", got)
	}
	for _, c := range r.fake.Calls("answerCallbackQuery") {
		if c.Fields["callback_query_id"] == "q-stranger" {
			t.Fatalf("a stranger's press was answered %q", c.Fields["text"])
		}
	}
	daemontest.WantCode(t, r.Act(t, token, "c1", nav), "")
}

func itoa(n int) string {
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

//go:build linux

package daemon_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// TestAppCardsAnsweredOutsideTheDashboard: an unlisted app's card is
// listed and answered Once with the real `buddi approvals` and `buddi
// approve`, and another is answered Reject with the button of its Telegram
// card (a fake Telegram server); each answer then holds for the agent's
// next open.
func TestAppCardsAnsweredOutsideTheDashboard(t *testing.T) {
	var d *daemontest.Daemon
	run := buddiCLI(t, func() *daemontest.Daemon { return d })
	fake := telegramtest.Start(t, 2*time.Second)
	d, _, _ = computerDaemon(t, []string{}, func(o *daemon.Options) {
		o.Config.TelegramToken, o.Config.TelegramAPI = telegramtest.Token, fake.URL
		o.Telegram = telegram.Tuning{Poll: 2 * time.Second, Pace: 20 * time.Millisecond}
	})
	d.PairTelegram(t, fake)
	token := d.AddAgent(t, "ada", true)
	openByName := map[string]any{"action": "open", "app": "Calculator"}

	// The CLI: listed as app:<id>, answered Once.
	d.Task(t, "ada", "c1", 40)
	wantRefused(t, d.Act(t, token, "c1", openByName), messages.CodeApprovalRequired, "asked the owner")
	if code, out, errs := run("approvals"); code != 0 || !strings.Contains(out, "c1") || !strings.Contains(out, "ada") || !strings.Contains(out, "app:"+calcID) {
		t.Fatalf("buddi approvals: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := run("approve", "c1", "app:"+calcID, "once"); code != 0 || !strings.Contains(out, "once for c1") {
		t.Fatalf("buddi approve: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := run("approvals"); code != 0 || !strings.Contains(out, "No site or app is waiting") {
		t.Fatalf("buddi approvals after the answer: exit %d\n%s", code, out)
	}
	if r := d.Act(t, token, "c1", openByName); !r.OK {
		t.Fatalf("open after Once from the CLI: %s: %s", r.Code(), r.Error.Message)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})

	// Telegram: the card names the app and its id; its Reject button holds.
	d.Task(t, "ada", "c2", 40)
	wantRefused(t, d.Act(t, token, "c2", openByName), messages.CodeApprovalRequired, "asked the owner")
	card, _ := fake.Await(t, "sendMessage", 0, "the app's card for c2", func(c telegramtest.Call) bool {
		return strings.Contains(c.Fields["text"], "Use Calculator on your computer?") && strings.Contains(c.Fields["text"], "c2")
	})
	if !strings.Contains(card.Fields["text"], "ada asks to open the app "+calcID) {
		t.Fatalf("the card reads %q; want it to name ada and %s", card.Fields["text"], calcID)
	}
	reject := cardButtons(t, card)["Reject"]
	if reject == "" {
		t.Fatalf("the card has no Reject button: %s", card.Fields["reply_markup"])
	}
	fake.Push(telegramtest.Press(telegramtest.User{ID: 4242, Name: "Ada"}, "q-reject", card.MessageID, reject))
	fake.Await(t, "answerCallbackQuery", 0, "the answer to Reject", func(c telegramtest.Call) bool {
		return c.Fields["callback_query_id"] == "q-reject"
	})
	wantRefused(t, d.Act(t, token, "c2", openByName), messages.CodeNotApproved, "The owner said no to Calculator in this conversation")
	if p := appRequests(t, d); len(p) != 0 {
		t.Fatalf("after Reject from Telegram the next open raised %+v", p)
	}
}

// cardButtons is a Telegram card's buttons: their callback data by label.
func cardButtons(t *testing.T, c telegramtest.Call) map[string]string {
	t.Helper()
	var m struct {
		InlineKeyboard [][]struct {
			Text string `json:"text"`
			Data string `json:"callback_data"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(c.Fields["reply_markup"]), &m); err != nil {
		t.Fatalf("reply_markup %q: %v", c.Fields["reply_markup"], err)
	}
	out := map[string]string{}
	for _, row := range m.InlineKeyboard {
		for _, b := range row {
			out[b.Text] = b.Data
		}
	}
	return out
}

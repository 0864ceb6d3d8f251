//go:build tailnet

package tailnet_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// With buddi on the tailnet and no public origin, the Take over button
// under a step's photo in Telegram opens the conversation's Browser tab
// at buddi's tailnet address, which a phone on the tailnet opens signed in.
func TestTelegramsTakeOverGoesToTheTailnetAddress(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c := control(t)
	fake := telegramtest.Start(t, 2*time.Second)
	o := daemon.Options{Mode: sim.NewMode(sim.Config{}, 1), TailnetEphemeral: true,
		Telegram: telegram.Tuning{Poll: 2 * time.Second, Pace: 20 * time.Millisecond}}
	o.Config.Tailnet, o.Config.TailnetControl, o.Config.TailnetHostname = true, c.HTTPTestServer.URL, "buddi"
	o.Config.TelegramToken, o.Config.TelegramAPI = telegramtest.Token, fake.URL
	d := daemontest.Start(t, "", o)
	at, err := d.TailnetUp(ctx)
	if err != nil || at == "" {
		t.Fatalf("buddi joins the tailnet: %q %v", at, err)
	}

	// The owner pairs the chat and binds the conversation to it.
	d.PairTelegram(t, fake)
	tok := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	d.Must(t, "POST", "/api/telegram/bind", messages.OwnerBody{Conversation: "c1"})

	if r := d.Act(t, tok, "c1", map[string]any{"action": "navigate", "url": sim.Origin + "/p/1"}); !r.OK {
		t.Fatalf("navigate: %s", r.Code())
	}
	fake.AwaitCount(t, "sendPhoto", 1)
	var markup struct {
		InlineKeyboard [][]struct {
			Text string `json:"text"`
			URL  string `json:"url"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(fake.Calls("sendPhoto")[0].Fields["reply_markup"]), &markup); err != nil {
		t.Fatalf("the photo's buttons: %v", err)
	}
	want := at + "/#/chat/ada/c1?tab=browser"
	for _, row := range markup.InlineKeyboard {
		for _, b := range row {
			if b.Text == "Take over" {
				if b.URL != want {
					t.Fatalf("Take over goes to %q; want %q", b.URL, want)
				}
				return
			}
		}
	}
	t.Fatalf("the photo has no Take over button: %+v", markup)
}

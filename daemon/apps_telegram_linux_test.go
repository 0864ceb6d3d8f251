//go:build linux

package daemon_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/native/protocol"
	"github.com/buddi-dev/buddi/ui/telegram"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// In Use my apps a step's picture goes to Telegram only for a window of
// an app the owner allowed: once for that conversation (the session keeps
// the answer), or on the list (after Always). The steps are real: the
// calculator on a private desktop, through the Linux helper.
func TestTelegramSendsWindowsOfAppsTheOwnerAllowed(t *testing.T) {
	fake := telegramtest.Start(t, 2*time.Second)
	d, o, _ := computerDaemon(t, []string{}, func(o *daemon.Options) {
		o.Config.TelegramToken, o.Config.TelegramAPI = telegramtest.Token, fake.URL
		o.Telegram = telegram.Tuning{Poll: 2 * time.Second, Pace: 20 * time.Millisecond}
	})
	d.PairTelegram(t, fake)
	token := d.AddAgent(t, "ada", true)
	steps := d.Events(t, events.Filter{Kinds: messages.KindStep})

	// Once, in c1: the calculator's window leaves, named as the calculator.
	d.Task(t, "ada", "c1", 40)
	d.Must(t, "POST", "/api/telegram/bind", messages.OwnerBody{Conversation: "c1"})
	wantRefused(t, d.Act(t, token, "c1", openCalc), messages.CodeApprovalRequired, "asked the owner")
	decide(t, d, "c1", messages.DecideOnce)
	if r := d.Act(t, token, "c1", openCalc); !r.OK {
		t.Fatalf("open after Once: %s: %s", r.Code(), r.Error.Message)
	}
	calculatorShows(t, o.Config.ComputerHelper)
	pressSeven(t, d, token, "c1") // a step that changes the window: the chat has not seen it yet
	daemontest.Await(t, steps, "c1's click with its window's app", func(ev messages.Event) bool {
		s := ev.(*messages.StepTaken)
		return s.Conversation == "c1" && s.Action == "click" && s.PictureApp == calcID && s.PictureAppOnce
	})
	fake.Await(t, "sendPhoto", 0, "the calculator's window, allowed once", func(c telegramtest.Call) bool {
		return c.Fields["chat_id"] == "4242" && strings.Contains(c.Fields["caption"], "Clicked")
	})
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})

	// Always, in c2: the app is on the list, and its window leaves too.
	photos := len(fake.Calls("sendPhoto"))
	d.Task(t, "ada", "c2", 40)
	d.Must(t, "POST", "/api/telegram/bind", messages.OwnerBody{Conversation: "c2"})
	wantRefused(t, d.Act(t, token, "c2", openCalc), messages.CodeApprovalRequired, "asked the owner")
	decide(t, d, "c2", messages.DecideAlways)
	if r := d.Act(t, token, "c2", openCalc); !r.OK {
		t.Fatalf("open after Always: %s: %s", r.Code(), r.Error.Message)
	}
	pressSeven(t, d, token, "c2")
	daemontest.Await(t, steps, "c2's click", func(ev messages.Event) bool {
		s := ev.(*messages.StepTaken)
		return s.Conversation == "c2" && s.Action == "click" && s.PictureApp == calcID && !s.PictureAppOnce
	})
	fake.Await(t, "sendPhoto", photos, "the calculator's window, on the list", func(c telegramtest.Call) bool {
		return strings.Contains(c.Fields["caption"], "Clicked")
	})
	for _, c := range fake.Calls("sendMessage") {
		if strings.Contains(c.Fields["text"], "stays on this computer") {
			t.Fatalf("a window of an allowed app was kept back: %q", c.Fields["text"])
		}
	}
}

// pressSeven observes conv's window and clicks the calculator's 7 by ref.
func pressSeven(t *testing.T, d *daemontest.Daemon, token, conv string) {
	t.Helper()
	obs := d.Observe(t, token, conv)
	m := regexp.MustCompile(`button "7[^"]*" \[ref=(ax[0-9]+)\]`).FindStringSubmatch(obs["text"].(string))
	if m == nil {
		t.Fatalf("no button 7 in %s's observation:\n%v", conv, obs["text"])
	}
	if r := d.Act(t, token, conv, map[string]any{"action": "click", "observation": obs["observation"], "target": map[string]any{"ref": m[1]}}); !r.OK {
		t.Fatalf("click 7 in %s: %s: %s", conv, r.Code(), r.Error.Message)
	}
}

// calculatorShows waits, through the helper, until the calculator shows
// its buttons on the accessibility bus (it joins in its own time), so the
// agent's observations do not fail (three failures in a row would pause
// the session), and returns what the helper saw.
func calculatorShows(t *testing.T, helper string) *protocol.Observation {
	t.Helper()
	c := &protocol.Client{Path: helper}
	for range 600 {
		if o, err := c.Observe(t.Context(), calcID); err == nil && len(o.Nodes) > 20 {
			return o
		}
	}
	t.Fatal("the calculator never showed its buttons to the helper")
	return nil
}

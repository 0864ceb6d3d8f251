package telegram_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

var (
	owner    = telegramtest.User{ID: 4242, Name: "Ada"}
	stranger = telegramtest.User{ID: 9999, Name: "Mallory"}
)

// rig is a daemon with the sim driver whose bot talks to a fake Bot API.
type rig struct {
	*daemontest.Daemon
	fake  *telegramtest.Server
	steps *events.Subscription
}

type options struct {
	cfg      func(*config.Config)
	clock    telegram.Clock
	tune     telegram.Tuning
	realPace bool // Telegram's own pace of a message a second
	// fake sets the fake up before the bot first calls it.
	fake func(*telegramtest.Server)
	// sim, when set, is the simulated browser's configuration (hosts
	// beyond the preview origin, faults).
	sim *sim.Config
}

// start starts the rig: a short poll and a short pace unless o says
// otherwise (the pace tests pass a clock they move).
func start(t testing.TB, o options) *rig {
	t.Helper()
	fake := telegramtest.Start(t, 2*time.Second)
	if o.fake != nil {
		o.fake(fake)
	}
	cfg := config.Config{TelegramToken: telegramtest.Token, TelegramAPI: fake.URL}
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	tune := o.tune
	if tune.Poll == 0 {
		tune.Poll = 2 * time.Second
	}
	if tune.Pace == 0 && o.clock == nil && !o.realPace {
		tune.Pace = 20 * time.Millisecond
	}
	do := daemon.Options{Config: cfg, Telegram: tune, TelegramClock: o.clock}
	if o.sim != nil {
		do.Mode = sim.NewMode(*o.sim, 1)
	}
	d := daemontest.Start(t, "", do)
	r := &rig{Daemon: d, fake: fake}
	r.steps = d.Events(t, events.Filter{Kinds: messages.KindStep})
	return r
}

// pair pairs the owner's chat through the link the owner API gives, and
// waits until the bot welcomed it.
func (r *rig) pair(t testing.TB) {
	t.Helper()
	code := r.code(t)
	sub := r.Events(t, events.Filter{Kinds: messages.KindTelegram})
	r.fake.Push(telegramtest.Text(owner, "/start "+code))
	daemontest.Await(t, sub, "the pairing", func(ev messages.Event) bool {
		return ev.(*messages.TelegramChanged).View.Paired
	})
	r.awaitText(t, "Paired")
}

// code asks the owner API for a pairing link and returns its code.
func (r *rig) code(t testing.TB) string {
	t.Helper()
	r.fake.AwaitCount(t, "getUpdates", 1) // the bot polls once getMe gave its name
	var link messages.TelegramLink
	r.Must(t, "POST", "/api/telegram/pair", nil).Decode(&link)
	u, err := url.Parse(link.Link)
	if err != nil || u.Host != "t.me" || u.Path != "/"+telegramtest.BotName {
		t.Fatalf("link %q is not a t.me link to the bot", link.Link)
	}
	return u.Query().Get("start")
}

// bind binds conv to the paired chat through the owner API.
func (r *rig) bind(t testing.TB, conv string) {
	t.Helper()
	r.Must(t, "POST", "/api/telegram/bind", messages.OwnerBody{Conversation: conv})
}

// act makes one act and waits for the step event it publishes, so the bot
// has the steps in the order they were taken.
func (r *rig) act(t testing.TB, token, conv string, in map[string]any) *daemontest.Reply {
	t.Helper()
	rep := r.Act(t, token, conv, in)
	daemontest.Await(t, r.steps, conv+"'s "+in["action"].(string), func(ev messages.Event) bool {
		s := ev.(*messages.StepTaken)
		return s.Conversation == conv && s.Action == in["action"]
	})
	return rep
}

// awaitText waits for a message to the owner holding want, after the
// from-th, and returns its text and index.
func (r *rig) awaitText(t testing.TB, want string) (string, int) {
	t.Helper()
	c, i := r.fake.Await(t, "sendMessage", 0, "saying "+want, func(c telegramtest.Call) bool {
		return strings.Contains(c.Fields["text"], want)
	})
	if c.Fields["chat_id"] != "4242" {
		t.Fatalf("%q went to chat %s, not the owner's", c.Fields["text"], c.Fields["chat_id"])
	}
	return c.Fields["text"], i
}

// buttons reads a message's inline buttons: label → data or URL.
func buttons(t testing.TB, c telegramtest.Call) map[string]string {
	t.Helper()
	out := map[string]string{}
	raw := c.Fields["reply_markup"]
	if raw == "" {
		return out
	}
	var m struct {
		InlineKeyboard [][]struct {
			Text string `json:"text"`
			Data string `json:"callback_data"`
			URL  string `json:"url"`
		} `json:"inline_keyboard"`
	}
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("reply_markup %q: %v", raw, err)
	}
	for _, row := range m.InlineKeyboard {
		for _, b := range row {
			out[b.Text] = b.Data + b.URL
		}
	}
	return out
}

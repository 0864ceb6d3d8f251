package daemontest

import (
	"net/url"
	"testing"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// PairTelegram pairs the owner's chat (Ada's, on fake) with h's bot
// through the link the owner API gives, and waits until h says it is.
func (h *Daemon) PairTelegram(t testing.TB, fake *telegramtest.Server) {
	t.Helper()
	fake.AwaitCount(t, "getUpdates", 1)
	var link messages.TelegramLink
	h.Must(t, "POST", "/api/telegram/pair", nil).Decode(&link)
	u, err := url.Parse(link.Link)
	if err != nil {
		t.Fatal(err)
	}
	sub := h.Events(t, events.Filter{Kinds: messages.KindTelegram})
	fake.Push(telegramtest.Text(telegramtest.User{ID: 4242, Name: "Ada"}, "/start "+u.Query().Get("start")))
	Await(t, sub, "the pairing", func(ev messages.Event) bool {
		return ev.(*messages.TelegramChanged).View.Paired
	})
}

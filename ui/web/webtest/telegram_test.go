package webtest_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// The owner pairs a Telegram chat from Settings with the link the page
// shows, has the chat follow a conversation and stop (in Settings and from
// the conversation view), and unpairs it; the bot is a fake Bot API on
// 127.0.0.1.
func TestTelegramIsPairedFollowedAndUnpairedFromTheDashboard(t *testing.T) {
	fake := telegramtest.Start(t, 2*time.Second)
	o := start(t, daemon.Options{Config: config.Config{TelegramToken: telegramtest.Token, TelegramAPI: fake.URL}})
	fake.AwaitCount(t, "getUpdates", 1) // the bot knows its name: a link can be made
	p := o.Page(t, 375, 812)
	o.SignIn(t, p)
	goTo(t, o, p, "#/settings/telegram")
	webtest.Visible(t, p.Locator(".section-body", pw.PageLocatorOptions{HasText: "@" + telegramtest.BotName}))
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Pair my chat"}))
	link := p.Locator(".pair-link a")
	webtest.Visible(t, link)
	href, err := link.GetAttribute("href")
	if err != nil || !strings.HasPrefix(href, "https://t.me/"+telegramtest.BotName+"?start=") {
		t.Fatalf("the pairing link is %q (%v)", href, err)
	}
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	fake.Push(telegramtest.Text(telegramtest.User{ID: 77, Name: "Ada"}, "/start "+u.Query().Get("start")))
	fake.Await(t, "sendMessage", 0, "welcome", func(c telegramtest.Call) bool { return strings.HasPrefix(c.Fields["text"], "Paired") })
	goTo(t, o, p, "#/settings/devices")
	goTo(t, o, p, "#/settings/telegram")
	webtest.Visible(t, p.Locator(".section-body", pw.PageLocatorOptions{HasText: "Paired with @ada"}))
	if err := p.Locator("input[name=conversation]").Fill("c1"); err != nil {
		t.Fatal(err)
	}
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Follow"}))
	webtest.Visible(t, p.Locator(`li[data-conversation="c1"]`))
	webtest.Screenshot(t, p, "phone-settings-telegram")
	webtest.Click(t, p.Locator(`li[data-conversation="c1"] button`, pw.PageLocatorOptions{HasText: "Stop following"}))
	webtest.Visible(t, p.Locator(".section-body .empty", pw.PageLocatorOptions{HasText: "follows no conversation"}))
	// The conversation view has the same switch: following c2 there puts it
	// on the Settings list.
	goTo(t, o, p, "#/chat/ada/c2")
	webtest.Click(t, p.Locator("label.follow input[name=follow]"))
	webtest.Visible(t, p.Locator(".notice", pw.PageLocatorOptions{HasText: "now follows c2"}))
	goTo(t, o, p, "#/settings/telegram")
	webtest.Visible(t, p.Locator(`li[data-conversation="c2"]`))
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Unpair"}))
	webtest.Visible(t, p.Locator(".section-body", pw.PageLocatorOptions{HasText: "No chat is paired"}))
}

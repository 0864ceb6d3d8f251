package telegram

import (
	"net"
	"net/url"
	"strings"

	tele "gopkg.in/telebot.v3"
)

// takeOver is the link to a conversation's Browser tab on the dashboard:
// on the public origin when one is set and Telegram would take it as a
// button, else on the tailnet address when buddi is on the tailnet, else
// on the loopback address buddi serves on, to be opened on
// that computer (button false).
func (b *Bot) takeOver(agent, conv string) (link string, button bool) {
	path := "/#/chat/" + url.PathEscape(agent) + "/" + url.PathEscape(conv) + "?tab=browser"
	if o := strings.TrimRight(b.cfg.PublicOrigin, "/"); o != "" && buttonHost(o) {
		return o + path, true
	}
	if b.cfg.Tailnet != nil {
		if o := strings.TrimRight(b.cfg.Tailnet(), "/"); o != "" && buttonHost(o) {
			return o + path, true
		}
	}
	return "http://" + b.cfg.Addr + path, false
}

// buttonHost reports whether Telegram could take origin's host in a URL
// button: not localhost, not a loopback or unspecified address. (Telegram
// may refuse others too; a refused button is dropped and the link goes in
// the text.)
func buttonHost(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Hostname() == "" {
		return false
	}
	h := strings.ToLower(u.Hostname())
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return false
	}
	if ip := net.ParseIP(h); ip != nil && (ip.IsLoopback() || ip.IsUnspecified()) {
		return false
	}
	return true
}

// takeOverButton is the Take over button under a photo.
func takeOverButton(link string) *tele.ReplyMarkup {
	return &tele.ReplyMarkup{InlineKeyboard: [][]tele.InlineButton{{{Text: "Take over", URL: link}}}}
}

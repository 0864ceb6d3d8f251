package telegram

import (
	"bytes"
	"image/jpeg"

	"github.com/buddi-dev/buddi/messages"
)

// Check decides whether a step's picture may leave the machine; why is the
// sentence the chat reads instead when it may not. A check that cannot
// tell says no.
type Check func(s *messages.StepTaken) (ok bool, why string)

// maxEdge bounds a picture's side; Telegram takes photos up to 10,000 px.
const maxEdge = 8192

// browserModes are the modes whose pictures are pages, checked against the
// install's browser hosts.
var browserModes = map[string]bool{"playwright": true, "extension": true, "sim": true}

// appsMode is Use my apps, whose pictures are windows of the owner's apps.
const appsMode = "computer"

// checks is every check a picture passes, in order: readable, then the
// mode's own (the browser hosts; a later mode's Config.Checks), and a mode
// with no check of its own fails closed.
func (b *Bot) checks() []Check {
	mode := ""
	if b.cfg.Mode != nil {
		mode = b.cfg.Mode()
	}
	out := []Check{readable}
	switch {
	case browserModes[mode]:
		out = append(out, b.listed)
	case mode == appsMode:
		out = append(out, b.appAllowed)
	case len(b.cfg.Checks) == 0:
		out = append(out, unchecked)
	}
	return append(out, b.cfg.Checks...)
}

// allowed runs the checks; the first that says no gives the reason.
func (b *Bot) allowed(s *messages.StepTaken) (bool, string) {
	for _, c := range b.checks() {
		if ok, why := c(s); !ok {
			return false, why
		}
	}
	return true, ""
}

// readable passes a JPEG whose header decodes to a sane size.
func readable(s *messages.StepTaken) (bool, string) {
	if len(s.Picture) == 0 {
		return false, "the step left no picture of the page."
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(s.Picture))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width > maxEdge || cfg.Height > maxEdge {
		return false, "the picture of the page could not be read."
	}
	return true, ""
}

// listed passes a page on the install's browser hosts (any page when they
// are not set); a URL it cannot read is not on them.
func (b *Bot) listed(s *messages.StepTaken) (bool, string) {
	if !b.cfg.Pages.Listed(s.URL) {
		return false, "the page is not on this install's browser hosts (BUDDI_BROWSER_HOSTS), so its picture stays on this computer."
	}
	return true, ""
}

// unchecked fails closed for a mode no check knows.
func unchecked(*messages.StepTaken) (bool, string) {
	return false, "pictures of this mode are not checked yet, so they stay on this computer."
}

// appAllowed passes a window of an app on the owner's list, or one the
// owner allowed once for the step's conversation; a window whose app could
// not be told is not sent.
func (b *Bot) appAllowed(s *messages.StepTaken) (bool, string) {
	switch {
	case s.PictureApp == "":
		return false, "the window's app could not be told, so its picture stays on this computer."
	case s.PictureAppOnce, b.cfg.AppListed != nil && b.cfg.AppListed(s.PictureApp):
		return true, ""
	}
	return false, s.PictureApp + " is not on your list of apps for Use my apps, so its picture stays on this computer."
}

package e2e_test

import (
	"bytes"
	"image"
	"image/jpeg"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// A conversation bound to the owner's Telegram chat gets a photo of the
// real page Chromium shows, through buddi serve and a fake Bot API.
func TestE2ETelegramPhotoOfARealPage(t *testing.T) {
	fake := telegramtest.Start(t, 2*time.Second)
	s := newSite(t)
	b := serve(t, "", "BUDDI_PREVIEW_ORIGINS="+s.URL, "BUDDI_TELEGRAM_TOKEN="+telegramtest.Token,
		"BUDDI_TELEGRAM_API="+fake.URL)
	tok := b.AddAgent(t, "ada", false)
	b.Task(t, "ada", "c1", 80)

	fake.AwaitCount(t, "getUpdates", 1) // the bot knows its name
	var link messages.TelegramLink
	b.Must(t, "POST", "/api/telegram/pair", nil).Decode(&link)
	u, err := url.Parse(link.Link)
	if err != nil {
		t.Fatal(err)
	}
	owner := telegramtest.User{ID: 4242, Name: "Ada"}
	fake.Push(telegramtest.Text(owner, "/start "+u.Query().Get("start")))
	fake.Await(t, "sendMessage", 0, "welcoming the owner", func(c telegramtest.Call) bool {
		return strings.HasPrefix(c.Fields["text"], "Paired")
	})
	b.Must(t, "POST", "/api/telegram/bind", messages.OwnerBody{Conversation: "c1"})

	ok(t, b.Act(t, tok, "c1", in{"action": "navigate", "url": s.URL + "/"}))
	fake.AwaitCount(t, "sendPhoto", 1)
	p := fake.Calls("sendPhoto")[0]
	if !strings.HasPrefix(p.Fields["caption"], "Home\nOpened "+s.URL+"/\nStep 1 of 80") {
		t.Fatalf("caption %q", p.Fields["caption"])
	}
	img, err := jpeg.Decode(bytes.NewReader(p.Files["photo"].Data))
	if err != nil {
		t.Fatalf("the photo is not a JPEG: %v", err)
	}
	if w := img.Bounds().Dx(); w < 640 {
		t.Fatalf("the photo is %d px wide; a viewport screenshot is wider", w)
	}
	if !drawn(img) {
		t.Fatal("the photo is one flat colour: no page was drawn")
	}
}

// drawn reports whether an image holds dark pixels (text) and light ones.
func drawn(img image.Image) bool {
	var dark, light bool
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			l := (r + g + bl) / 3 >> 8
			dark, light = dark || l < 80, light || l > 200
		}
	}
	return dark && light
}

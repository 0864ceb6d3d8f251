package telegram

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"log/slog"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

// The mode is asked at every picture: after the owner switches from the
// browser to Use my apps while the bot runs, a desktop picture is not sent
// on the browser's hosts check, and back in the browser pictures go again.
func TestPicturesFollowTheModeSwitchedWhileTheBotRuns(t *testing.T) {
	mode := "playwright"
	b, err := New(Config{Token: "1:x", API: "http://127.0.0.1:1", Actors: &controls{}, Pages: allPages{},
		Mode: func() string { return mode }, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	var pic bytes.Buffer
	if err := jpeg.Encode(&pic, image.NewGray(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	step := &messages.StepTaken{Conversation: "c1", URL: "https://example.com/", Picture: pic.Bytes()}
	if ok, why := b.allowed(step); !ok {
		t.Fatalf("a page in the browser mode was kept back: %s", why)
	}
	mode = "computer"
	if ok, _ := b.allowed(step); ok {
		t.Fatal("after the switch to Use my apps a desktop picture passed the browser's hosts check")
	}
	mode = "extension"
	if ok, why := b.allowed(step); !ok {
		t.Fatalf("back in a browser mode the page was kept back: %s", why)
	}
	b.cfg.Mode = nil
	if ok, _ := b.allowed(step); ok {
		t.Fatal("a bot that cannot tell the mode sent the picture")
	}
}

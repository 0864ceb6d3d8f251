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

// In Use my apps a window's picture leaves only for an app on the owner's
// list (asked at every picture) or one the owner allowed once for that
// conversation; a window whose app is unknown stays, and so does another.
func TestInUseMyAppsOnlyAllowedAppsWindowsLeave(t *testing.T) {
	listed := map[string]bool{"org.gnome.Calculator": true}
	b, err := New(Config{Token: "1:x", API: "http://127.0.0.1:1", Actors: &controls{}, Pages: allPages{},
		Mode: func() string { return "computer" }, AppListed: func(id string) bool { return listed[id] },
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	var pic bytes.Buffer
	if err := jpeg.Encode(&pic, image.NewGray(image.Rect(0, 0, 8, 8)), nil); err != nil {
		t.Fatal(err)
	}
	step := func(app string, once bool) *messages.StepTaken {
		return &messages.StepTaken{Conversation: "c1", Picture: pic.Bytes(), PictureApp: app, PictureAppOnce: once}
	}
	for name, c := range map[string]struct {
		step *messages.StepTaken
		ok   bool
	}{
		"a listed app":             {step("org.gnome.Calculator", false), true},
		"an app allowed once":      {step("org.gnome.TextEditor", true), true},
		"an app neither":           {step("org.gnome.TextEditor", false), false},
		"an app that was not told": {step("", true), false},
	} {
		if ok, why := b.allowed(c.step); ok != c.ok {
			t.Errorf("%s: sent %v (%s), want %v", name, ok, why, c.ok)
		}
	}
	delete(listed, "org.gnome.Calculator")
	if ok, _ := b.allowed(step("org.gnome.Calculator", false)); ok {
		t.Error("an app taken off the list still has its pictures sent")
	}
}

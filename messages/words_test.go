package messages_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

func TestStepsInWords(t *testing.T) {
	link := messages.TargetWords("e3", "link", "Sign in")
	cases := map[string]struct {
		in     messages.ActInput
		target string
		want   string
	}{
		"navigate":       {messages.ActInput{Action: "navigate", URL: "https://example.com/"}, "", "Opened https://example.com/"},
		"click":          {messages.ActInput{Action: "click"}, link, "Clicked link “Sign in”"},
		"named key":      {messages.ActInput{Action: "press", Key: "Enter"}, "", "Pressed Enter"},
		"character key":  {messages.ActInput{Action: "press", Key: "x"}, "", "Pressed a character key"},
		"scroll by":      {messages.ActInput{Action: "scroll", DeltaY: 400}, "", "Scrolled by 400 px"},
		"region read":    {messages.ActInput{Action: "observe", Within: "e4"}, "", "Read the page (one region)"},
		"new tab":        {messages.ActInput{Action: "tab", Tab: "new"}, "", "Opened a new tab"},
		"script":         {messages.ActInput{Action: "script", Steps: make([]*messages.ActInput, 3)}, "", "Ran a script of 3 steps"},
		"find":           {messages.ActInput{Action: "find", Text: "Opening hours"}, "", "Searched the page for “Opening hours”"},
		"unknown action": {messages.ActInput{Action: "teleport"}, "", "Did “teleport”"},
	}
	for name, c := range cases {
		if got := messages.InWords(&c.in, c.target); got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
}

func TestWhatWasTypedIsNeverInWords(t *testing.T) {
	in := &messages.ActInput{Action: "fill", Value: "hunter2"}
	if got := messages.InWords(in, messages.TargetWords("e9", "textbox", "Password")); strings.Contains(got, "hunter2") {
		t.Fatalf("%q repeats the value typed", got)
	}
}

func TestLongNamesAreClipped(t *testing.T) {
	got := messages.TargetWords("e1", "link", strings.Repeat("a", 500))
	if len([]rune(got)) > 100 {
		t.Fatalf("a 500-character name became %d characters in words", len([]rune(got)))
	}
}

package messages_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// Two events coalesce in a slow subscriber's queue when their keys are
// equal: the same thing said again, and nothing else.
func TestEventsShareAKeyOnlyWhenTheySayTheSameThing(t *testing.T) {
	at := time.Date(2026, 12, 6, 15, 0, 0, 0, time.UTC)
	session := func(conv string) messages.Event {
		return &messages.SessionChanged{Session: messages.SessionInfo{Conversation: conv}}
	}
	step := func(conv string, at time.Time) messages.Event {
		return &messages.StepTaken{Conversation: conv, At: at}
	}
	ask := func(conv, site string) messages.Event {
		return &messages.ApprovalRequested{Request: messages.SiteRequest{Conversation: conv, Site: site}}
	}
	for _, c := range []struct {
		name string
		a, b messages.Event
		same bool
	}{
		{"a session's newer state", session("a"), session("a"), true},
		{"two sessions", session("a"), session("b"), false},
		{"a session and its task", session("a"), &messages.TaskChanged{Task: messages.TaskView{Conversation: "a"}}, false},
		{"a session and its snapshot", session("a"), &messages.SnapshotTaken{Snapshot: messages.Snapshot{Conversation: "a"}}, false},
		{"two steps of a conversation", step("a", at), step("a", at.Add(time.Nanosecond)), false},
		{"a step told twice", step("a", at), step("a", at), true},
		{"steps of two conversations at one moment", step("a", at), step("b", at), false},
		{"one site asked about again", ask("a", "example.org"), ask("a", "example.org"), true},
		{"two sites", ask("a", "example.org"), ask("a", "example.com"), false},
		{"a name that reads as another's with its site", ask("a|b", "c"), ask("a", "b|c"), false},
		{"the Stop", &messages.StopChanged{Stopped: true}, &messages.StopChanged{}, true},
		{"the Stop and Telegram", &messages.StopChanged{}, &messages.TelegramChanged{}, false},
		{"a move, and a session of the name it left", &messages.ConversationMoved{From: "a"}, session("a"), false},
	} {
		if got := c.a.Key() == c.b.Key(); got != c.same {
			t.Errorf("%s: keys %+v and %+v equal is %v, want %v", c.name, c.a.Key(), c.b.Key(), got, c.same)
		}
	}
}

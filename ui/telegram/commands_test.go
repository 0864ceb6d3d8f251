package telegram_test

import (
	"context"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// say sends the owner's text and returns the answer that holds want.
func (r *rig) say(t testing.TB, text, want string) string {
	t.Helper()
	before := len(r.fake.Calls("sendMessage"))
	r.fake.Push(telegramtest.Text(owner, text))
	c, _ := r.fake.Await(t, "sendMessage", before, "answering "+text, func(telegramtest.Call) bool { return true })
	if !strings.Contains(c.Fields["text"], want) {
		t.Fatalf("%s was answered %q, want it to say %q", text, c.Fields["text"], want)
	}
	return c.Fields["text"]
}

func (r *rig) stopped(t testing.TB) bool {
	t.Helper()
	h, e := r.Actors().Health(context.Background())
	if e != nil {
		t.Fatal(e)
	}
	return h.Stopped
}

func TestStopAndResumeFromTheChatAndTheWayBackAgentsRead(t *testing.T) {
	r := start(t, options{})
	token := r.agentIn(t, "c1")
	r.Task(t, "ada", "c2", 80) // not bound: its agent is told about the dashboard
	r.say(t, "/browser stop", "All browser access is stopped")
	if !r.stopped(t) {
		t.Fatal("/browser stop did not stop access")
	}
	rep := r.Act(t, token, "c1", map[string]any{"action": "observe"})
	daemontest.WantCode(t, rep, "stopped")
	if !strings.Contains(rep.Error.Message, "/browser resume in their Telegram chat") {
		t.Fatalf("a bound conversation's agent reads %q", rep.Error.Message)
	}
	rep = r.Act(t, token, "c2", map[string]any{"action": "observe"})
	if !strings.Contains(rep.Error.Message, "dashboard's Host browser page") {
		t.Fatalf("an unbound conversation's agent reads %q", rep.Error.Message)
	}
	r.say(t, "/browser", "Browser access is STOPPED")
	r.say(t, "/browser resume", "Browser access is resumed")
	if r.stopped(t) {
		t.Fatal("/browser resume did not lift the Stop")
	}
}

func TestResumeHandsAPausedSessionBack(t *testing.T) {
	r := start(t, options{sim: &sim.Config{Faults: sim.Faults{TargetMiss: 1}}})
	token := r.agentIn(t, "c1")
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	for range 3 { // three targeting failures pause the session
		obs := r.Observe(t, token, "c1")
		r.Act(t, token, "c1", map[string]any{"action": "click", "observation": daemontest.ID(obs), "target": map[string]any{"ref": "e2"}})
	}
	rep := r.Act(t, token, "c1", map[string]any{"action": "observe"})
	daemontest.WantCode(t, rep, "paused")
	if !strings.Contains(rep.Error.Message, "/browser resume") {
		t.Fatalf("the paused refusal of a bound conversation reads %q", rep.Error.Message)
	}
	r.say(t, "/browser", "c1 (ada): paused (targeting failed three times in a row)")
	r.say(t, "/browser resume", "c1 is handed back to its agent")
	r.WaitSession(t, "c1", messages.StateReady)

	r.Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "c1"})
	r.say(t, "/browser", "taken over: you are driving")
	r.say(t, "/browser resume", "c1 is handed back")
}

func TestReleaseActsOnTheConversationWhosePhotoItAnswers(t *testing.T) {
	r := start(t, options{})
	token := r.agentIn(t, "c1", "c2")
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	r.photo(t, 1)
	r.act(t, token, "c2", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/2"})
	r.photo(t, 2)
	r.say(t, "/browser release", "Several conversations fit (c1, c2)")

	id := r.fake.Calls("sendPhoto")[1].MessageID
	before := len(r.fake.Calls("sendMessage"))
	r.fake.Push(telegramtest.Reply(owner, "/browser release", id))
	c, _ := r.fake.Await(t, "sendMessage", before, "answering the release", func(telegramtest.Call) bool { return true })
	if !strings.Contains(c.Fields["text"], "c2 is released") {
		t.Fatalf("the release answered %q", c.Fields["text"])
	}
	r.WaitSession(t, "c2", "")
	r.say(t, "/browser release", "c1 is released") // one left: no reply needed
}

func TestCommandsWithExtraWordsAndUnknownCommandsDoNothing(t *testing.T) {
	r := start(t, options{})
	r.agentIn(t, "c1")
	for _, text := range []string{"/browser stop now", "/browser STOP please", "/browser explode", "/frobnicate", "hello", "/browser@other_bot stop"} {
		before := len(r.fake.Calls("sendMessage"))
		r.fake.Push(telegramtest.Text(owner, text))
		if text == "/browser@other_bot stop" {
			r.fake.Push(telegramtest.Text(owner, "/browser"))
		}
		c, _ := r.fake.Await(t, "sendMessage", before, "answering "+text, func(telegramtest.Call) bool { return true })
		if !strings.Contains(c.Fields["text"], "I know /browser") && !strings.Contains(c.Fields["text"], "Mode: sim") {
			t.Fatalf("%q was answered %q", text, c.Fields["text"])
		}
	}
	if r.stopped(t) {
		t.Fatal("a command with extra words stopped access")
	}
	var list messages.SessionList
	r.Must(t, "GET", "/api/browser/sessions", nil).Decode(&list)
	if len(list) != 1 {
		t.Fatalf("sessions: %+v", list)
	}
}

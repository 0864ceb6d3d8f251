package telegram_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram/telegramtest"
)

// The chat's pace and a 429's retry_after are waited on the clock the test
// moves: what was sent is counted at each step, never timed.
func TestPhotosKeepThePaceAndHonourRetryAfter(t *testing.T) {
	clock := telegramtest.NewClock()
	r := start(t, options{clock: clock})
	token := r.agentIn(t, "c1") // the welcome goes at once; the next message waits a second
	r.fake.Script("sendPhoto", telegramtest.Flood(7))
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})

	clock.AwaitSleeper(t, time.Second)
	if n := len(r.fake.Calls("sendPhoto")); n != 0 {
		t.Fatalf("%d photos went within a second of the last message", n)
	}
	clock.Advance(time.Second)
	clock.AwaitSleeper(t, 7*time.Second) // the photo met a 429: retry after 7s
	if n := len(r.fake.Calls("sendPhoto")); n != 1 {
		t.Fatalf("%d tries of the photo before retry_after passed, want the one refused", n)
	}
	clock.Advance(6 * time.Second)
	if n := len(r.fake.Calls("sendPhoto")); n != 1 || !contains(clock.Sleeping(), 7*time.Second) {
		t.Fatalf("the photo was tried again (%d tries) before retry_after passed", n)
	}
	clock.Advance(time.Second)
	p := r.photo(t, 2)
	if p.MessageID == 0 {
		t.Fatal("the photo sent again after retry_after was refused")
	}
}

// A poll that fails waits a capped, doubling backoff before the next one,
// whatever the failure: an error, a 409 Conflict, garbage, a 429 whose
// retry_after is not a number. Each move of the clock lets exactly one
// more poll through; then polling resumes and the owner can pair.
func TestAFailingBotAPIIsPolledWithBackoffNotInALoop(t *testing.T) {
	failures := []telegramtest.Answer{
		telegramtest.Failing(500, "Internal Server Error"),
		telegramtest.Failing(409, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"),
		{Status: 200, Body: "<html>not json</html>"},
		{Status: 200, Body: `{"ok":true,"result":"garbage"}`},
		{Status: 429, Body: `{"ok":false,"error_code":429,"description":"Too Many Requests","parameters":{"retry_after":"soon"}}`},
		telegramtest.Failing(502, "Bad Gateway"),
		telegramtest.Failing(500, "Internal Server Error"),
		telegramtest.Failing(500, "Internal Server Error"),
	}
	clock := telegramtest.NewClock()
	r := start(t, options{clock: clock, fake: func(f *telegramtest.Server) { f.Script("getUpdates", failures...) }})
	waits := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60}
	for i, w := range waits {
		clock.AwaitSleeper(t, w*time.Second)
		if n := len(r.fake.Calls("getUpdates")); n != i+1 {
			t.Fatalf("after %d failures and a wait of %ds, %d polls", i+1, w, n)
		}
		if i == 1 {
			var v messages.TelegramView
			r.Must(t, "GET", "/api/telegram", nil).Decode(&v)
			if v.Bot.Polling || v.Bot.Problem == "" {
				t.Fatalf("while polls fail the bot says %+v", v.Bot)
			}
		}
		clock.Advance(w * time.Second)
	}
	r.pair(t)
	var v messages.TelegramView
	r.Must(t, "GET", "/api/telegram", nil).Decode(&v)
	if !v.Bot.Polling || v.Bot.Problem != "" {
		t.Fatalf("once polls answer the bot says %+v", v.Bot)
	}
}

func contains(list []time.Duration, d time.Duration) bool {
	for _, x := range list {
		if x == d {
			return true
		}
	}
	return false
}

// Garbled answers to an upload are retried after a growing wait, on the
// clock the test moves, and the photo goes through once Telegram answers.
func TestAGarbledAnswerToAnUploadIsRetried(t *testing.T) {
	clock := telegramtest.NewClock()
	r := start(t, options{clock: clock})
	token := r.agentIn(t, "c1")
	r.fake.Script("sendPhoto",
		telegramtest.Answer{Status: 200, Body: `{"ok":true,"result":{}}`}, // no photo in the message sent
		telegramtest.Answer{Status: 200, Body: `not json at all`})
	r.act(t, token, "c1", map[string]any{"action": "navigate", "url": "https://sim.localhost/p/1"})
	for i, wait := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		clock.AwaitSleeper(t, wait)
		if n := len(r.fake.Calls("sendPhoto")); n != i {
			t.Fatalf("%d tries before the wait of %s, want %d", n, wait, i)
		}
		clock.Advance(wait)
	}
	if p := r.photo(t, 3); p.MessageID == 0 {
		t.Fatal("the third try did not go through")
	}
}

package telegram

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tele "gopkg.in/telebot.v3"

	"github.com/buddi-dev/buddi/messages"
)

func TestTheOutboxKeepsTheNewestStepOfEachConversation(t *testing.T) {
	o := newOutbox()
	o.put(&item{conv: "a", text: "a1", photo: []byte{1}})
	o.put(&item{conv: "b", text: "b1"}) // a step in words
	o.put(&item{conv: "a", text: "a2", photo: []byte{1}})
	o.put(&item{text: "reply"})
	o.put(&item{conv: "a", text: "a3", photo: []byte{1}})
	var got []string
	for it, ok := o.take(); ok; it, ok = o.take() {
		got = append(got, it.text)
	}
	if strings.Join(got, " ") != "reply a3 b1" {
		t.Fatalf("sent %v, want the reply first, then a's newest step, then b's", got)
	}
	if o.Dropped() != 2 {
		t.Fatalf("dropped %d, want a1 and a2", o.Dropped())
	}
}

func TestAStepTriedAgainGivesWayToANewerOne(t *testing.T) {
	o := newOutbox()
	o.put(&item{conv: "a", text: "old"})
	old, _ := o.take()
	o.put(&item{conv: "a", text: "new"})
	o.again(old)
	first, _ := o.take()
	if _, more := o.take(); first.text != "new" || more {
		t.Fatalf("after a retry with a newer step waiting, sent %q then more=%v", first.text, more)
	}
	o.put(&item{text: "t1"})
	o.put(&item{text: "t2"})
	t1, _ := o.take()
	o.again(t1)
	if again, _ := o.take(); again.text != "t1" {
		t.Fatalf("a text tried again went after %q", again.text)
	}
}

func TestTextsWaitingAreBounded(t *testing.T) {
	o := newOutbox()
	for i := range maxTexts + 10 {
		o.put(&item{text: fmt.Sprint(i)})
	}
	first, _ := o.take()
	if first.text != "10" || o.Dropped() != 10 {
		t.Fatalf("first %q, dropped %d: the oldest texts should give way", first.text, o.Dropped())
	}
}

func TestFailuresOfTheBotAPI(t *testing.T) {
	cases := map[string]struct {
		err  error
		want failure
		wait time.Duration
	}{
		"none":             {nil, failNone, 0},
		"flood":            {tele.FloodError{RetryAfter: 12}, failFlood, 12 * time.Second},
		"flood of zero":    {tele.FloodError{RetryAfter: 0}, failFlood, time.Second},
		"flood for ages":   {tele.FloodError{RetryAfter: 1 << 30}, failFlood, maxRetryAfter},
		"a refused button": {fmt.Errorf("telegram: Bad Request: BUTTON_URL_INVALID (400)"), failButton, 0},
		"a bad request":    {fmt.Errorf("telegram: Bad Request: chat not found (400)"), failRefused, 0},
		"a known 403":      {tele.ErrBlockedByUser, failRefused, 0},
		"a 500":            {tele.ErrInternal, failTransient, 0},
		"a 502":            {fmt.Errorf("telegram: Bad Gateway (502)"), failTransient, 0},
		"the network":      {errors.New("dial tcp: connection refused"), failTransient, 0},
		"garbage":          {ErrGarbled, failTransient, 0},
	}
	for name, c := range cases {
		if f, wait := classify(c.err); f != c.want || wait != c.wait {
			t.Errorf("%s: %d %s, want %d %s", name, f, wait, c.want, c.wait)
		}
	}
}

func TestCaptionsFitTelegramsLimit(t *testing.T) {
	s := &messages.StepTaken{Title: strings.Repeat("𝕏", 900), Words: "Clicked link “x”", StepsUsed: 3, StepsMax: 80,
		Code: messages.CodeNavFailed, Reason: strings.Repeat("é", 3000)}
	c := caption(s, "http://127.0.0.1:7777/#/chat/ada/c1?tab=browser")
	if units(c) > maxCaption {
		t.Fatalf("caption of %d units", units(c))
	}
	for _, want := range []string{"Clicked link “x”", "Step 3 of 80", "Take over: open http://127.0.0.1:7777/", "Failed: éé"} {
		if !strings.Contains(c, want) {
			t.Errorf("a long caption lost %q", want)
		}
	}
	if got := caption(&messages.StepTaken{URL: "https://example.com/a"}, ""); !strings.HasPrefix(got, "example.com\n") {
		t.Errorf("a page without a title is named %q", strings.SplitN(got, "\n", 2)[0])
	}
}

func TestTakeOverButtonsOnlyForHostsTelegramTakes(t *testing.T) {
	for origin, want := range map[string]bool{
		"https://buddi.tail1234.ts.net": true,
		"https://100.64.1.2:8443":       true,
		"http://localhost:7777":         false,
		"http://app.localhost":          false,
		"http://127.0.0.1:7777":         false,
		"http://[::1]:7777":             false,
		"http://0.0.0.0:7777":           false,
		"not a url":                     false,
	} {
		if got := buttonHost(origin); got != want {
			t.Errorf("%s: button %v, want %v", origin, got, want)
		}
	}
}

package messages_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// encoded is a as encoding/json's Encoder writes its envelope.
func encoded(t *testing.T, a messages.Answer) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(messages.Envelope[messages.Answer]{OK: true, Result: a}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The hot path's answers are written byte for byte as encoding/json writes
// them: a table of the answers agents get and of strings that need
// escaping, then random answers with random text.
func TestAppendOKIsWhatEncodingJSONWrites(t *testing.T) {
	at := time.Date(2026, 12, 3, 6, 58, 29, 120000000, time.UTC)
	left := 12
	tabs := []messages.Tab{{ID: "t1", URL: "https://a.example/?q=<x>&y", Title: "A", Active: true}, {ID: "t2", URL: "about:blank"}}
	cases := map[string]messages.Answer{
		"observation": &messages.Observation{ID: "o3", ObservedAt: at, Text: "Observed 06:58:29 UTC.\n<untrusted-page-content fence=\"ab\">\n- link \"Home\" [ref=e1]\n</untrusted-page-content fence=\"ab\">",
			URL: "https://a.example/", Title: "A", Tab: "t1", StepsLeft: 70},
		"observation after an action": &messages.Observation{Outcome: "navigated", ID: "o4", ObservedAt: at, Text: "x", Tab: "t1", Tabs: tabs,
			StepsLeft: 0, Truncated: true, Continues: &messages.Continuation{FullPage: true, After: "e9", Left: 3}, Left: &left,
			Screenshot: []byte{0xff, 0xd8, 0, 1, 2}, Timing: messages.WaitedFor(2 * time.Second)},
		"observation within": &messages.Observation{ID: "o5", ObservedAt: at.In(time.FixedZone("", -(23*3600 + 59*60))),
			Continues: &messages.Continuation{Within: "e2", After: "e7"}},
		"outcome":       &messages.Outcome{Outcome: "done", StepsLeft: 5, URL: "https://a.example/", Next: messages.ObserveAgain},
		"outcome shot":  &messages.Outcome{Outcome: "done", Screenshot: bytes.Repeat([]byte{7}, 301), Width: 1280, Height: 800, Tabs: tabs},
		"outcome dom":   &messages.Outcome{Outcome: "done", Text: "<a href=\"x\">&amp;</a>\u2028\u2029\x00\x1f\x7f\b\f\r\t\\", AuthenticatedUser: messages.AuthenticatedUser},
		"invalid utf-8": &messages.Outcome{Outcome: "done", Text: "a\xffb\xe2\x80c\xf0\x9f\x98\x80é"},
	}
	for name, a := range cases {
		got, ok := messages.AppendOK(nil, a)
		if want := encoded(t, a); !ok || !bytes.Equal(got, want) {
			t.Errorf("%s: ok=%v\n got %s\nwant %s", name, ok, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		a := randomAnswer(r)
		got, ok := messages.AppendOK([]byte("kept"), a)
		if want := append([]byte("kept"), encoded(t, a)...); !ok || !bytes.Equal(got, want) {
			t.Fatalf("random answer %d: ok=%v\n got %q\nwant %q", i, ok, got, want)
		}
	}
}

// Answers AppendOK does not write, and times encoding/json refuses, are
// left to encoding/json.
func TestAppendOKLeavesOtherAnswers(t *testing.T) {
	for name, a := range map[string]messages.Answer{
		"script":          &messages.ScriptResult{},
		"nil observation": (*messages.Observation)(nil),
		"year past 9999":  &messages.Observation{ObservedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
		"zone past a day": &messages.Observation{ObservedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600))},
		"nil outcome":     (*messages.Outcome)(nil),
	} {
		if _, ok := messages.AppendOK(nil, a); ok {
			t.Errorf("%s: written", name)
		}
	}
}

func randomText(r *rand.Rand) string {
	pieces := []string{"a", "Z", " ", "\"", "\\", "<", ">", "&", "\n", "\t", "\x00", "\x1b", "\x7f", "é", "\u2028", "\u2029", "\xff", "\xe2\x80", "😀", "\ufffd", "[ref=e1]"}
	var b strings.Builder
	for range r.IntN(40) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func randomAnswer(r *rand.Rand) messages.Answer {
	s := func() string {
		if r.IntN(3) == 0 {
			return ""
		}
		return randomText(r)
	}
	var tabs []messages.Tab
	for range r.IntN(3) {
		tabs = append(tabs, messages.Tab{ID: s(), URL: s(), Title: s(), Active: r.IntN(2) == 0})
	}
	var shot []byte
	if r.IntN(3) == 0 {
		shot = []byte(randomText(r))
	}
	var timing *messages.Timing
	if r.IntN(3) == 0 {
		timing = &messages.Timing{BrowserWaitMs: r.Int64N(1 << 40)}
	}
	n := r.IntN(200) - 20
	if r.IntN(2) == 0 {
		var c *messages.Continuation
		if r.IntN(2) == 0 {
			c = &messages.Continuation{FullPage: r.IntN(2) == 0, Within: s(), After: s()}
		}
		var left *int
		if r.IntN(2) == 0 {
			left = &n
		}
		zone := time.FixedZone("", (r.IntN(47)-23)*3600+r.IntN(4)*900)
		at := time.Unix(r.Int64N(1<<35), r.Int64N(1e9)).In(zone)
		return &messages.Observation{Outcome: s(), ID: s(), ObservedAt: at, Text: s(), URL: s(), Title: s(), Tab: s(),
			Tabs: tabs, StepsLeft: n, Truncated: r.IntN(2) == 0, Continues: c, Left: left, Screenshot: shot, Timing: timing}
	}
	return &messages.Outcome{Outcome: s(), StepsLeft: n, URL: s(), Title: s(), Tabs: tabs, Text: s(), AuthenticatedUser: s(),
		Screenshot: shot, Width: r.IntN(3) * 640, Height: r.IntN(3) * -400, Next: s(), Timing: timing}
}

// An audit line is written byte for byte as encoding/json writes it.
func TestAuditRecordAppendJSONIsWhatEncodingJSONWrites(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	s := func() string {
		if r.IntN(3) == 0 {
			return ""
		}
		return randomText(r)
	}
	for i := range 2000 {
		rec := messages.AuditRecord{At: time.Unix(r.Int64N(1<<35), r.Int64N(1e9)).In(time.FixedZone("", (r.IntN(47)-23)*3600)),
			Kind: s(), Agent: s(), Conversation: s(), Action: s(), Target: s(), Code: messages.Code(s()), URL: s(), Detail: s()}
		for range r.IntN(3) {
			rec.Steps = append(rec.Steps, s())
		}
		var want bytes.Buffer
		if err := json.NewEncoder(&want).Encode(&rec); err != nil {
			t.Fatal(err)
		}
		if got, ok := rec.AppendJSON(nil); !ok || !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("record %d: ok=%v\n got %q\nwant %q", i, ok, got, want.Bytes())
		}
	}
	if _, ok := (&messages.AuditRecord{At: time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC)}).AppendJSON(nil); ok {
		t.Error("a year before 0 was written")
	}
}

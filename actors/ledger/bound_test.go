package ledger_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// The refusal record never holds more than MaxRefusals entries, however
// many are written and in how many batches: the oldest are dropped.
func TestRefusalRecordIsBounded(t *testing.T) {
	st, pid, sys := open(t)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	key := func(i int) []byte {
		return ledger.RefusalKey(fmt.Sprintf("%s/1/c1", at.Add(time.Duration(i)*time.Millisecond).Format("20060102T150405.000000000")))
	}
	const total = ledger.MaxRefusals + 150
	for i := 0; i < total; i += 50 {
		var ops []ledger.Op
		for j := i; j < i+50; j++ {
			ops = append(ops, ledger.Put(key(j), ledger.Refusal{Conversation: "c1", Action: "navigate", URL: fmt.Sprint(j)}))
		}
		write(t, sys, pid, ops...)
	}
	write(t, sys, pid, ledger.Put(ledger.AgentKey("x"), ledger.Agent{Name: "x"})) // a commit after the trim
	got, err := st.Refusals()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != ledger.MaxRefusals || got[0].URL != fmt.Sprint(total-ledger.MaxRefusals) || got[len(got)-1].URL != fmt.Sprint(total-1) {
		t.Fatalf("kept %d refusals, first %q last %q; want the newest %d", len(got), got[0].URL, got[len(got)-1].URL, ledger.MaxRefusals)
	}
}

// A refusal recorded through RecordRefusal (the controller's and the
// browser's own) keeps each text to MaxRefusalText bytes, cut on a rune
// boundary: a URL a page made up, 64 KB long, is not kept whole.
func TestRecordedRefusalTextsAreCut(t *testing.T) {
	st, pid, sys := open(t)
	long := "https://example.com/" + strings.Repeat("é", 32<<10)
	ledger.RecordRefusal(sys.Root, pid, ledger.Refusal{Conversation: "c1", Agent: "a", Action: "browser", URL: long, Code: "air_gap"})
	write(t, sys, pid, ledger.Put(ledger.AgentKey("x"), ledger.Agent{Name: "x"})) // after the refusal in the mailbox
	got, err := st.Refusals()
	if err != nil || len(got) != 1 {
		t.Fatalf("refusals %v, %v; want the one recorded", got, err)
	}
	u := got[0].URL
	if len(u) > ledger.MaxRefusalText+len("…") || !strings.HasPrefix(long, strings.TrimSuffix(u, "…")) || !utf8.ValidString(u) {
		t.Fatalf("kept a URL of %d bytes (valid UTF-8 %v); want at most %d, a valid prefix of the one refused", len(u), utf8.ValidString(u), ledger.MaxRefusalText)
	}
	if got[0].Conversation != "c1" || got[0].Code != "air_gap" {
		t.Fatalf("short texts changed: %+v", got[0])
	}
}

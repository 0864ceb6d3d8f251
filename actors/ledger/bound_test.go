package ledger_test

import (
	"fmt"
	"testing"
	"time"

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

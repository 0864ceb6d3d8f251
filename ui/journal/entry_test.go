package journal

import (
	"testing"
	"time"
	"unsafe"

	"github.com/buddi-dev/buddi/messages"
)

// A step is kept in 112 bytes, with no allocation of its own: a
// conversation keeps up to MaxEntries+trimSlack of them.
func TestAStepIsKeptSmallAndWithoutAnAllocation(t *testing.T) {
	if n := unsafe.Sizeof(entry{}); n > 112 {
		t.Fatalf("a kept entry takes %d bytes, more than 112", n)
	}
	c := &conv{entries: make([]entry, 0, MaxEntries+trimSlack+1)}
	step := &messages.StepTaken{Conversation: "c1", Action: "observe", Outcome: "observed", URL: "https://a.example/",
		StepsUsed: 1, StepsMax: 80, Took: time.Millisecond, At: time.Now()}
	if n := testing.AllocsPerRun(100, func() { c.add(messages.StepEntry(step)) }); n != 0 {
		t.Fatalf("a step's entry made %.1f allocations", n)
	}
	if c.entries[0].other != nil {
		t.Fatal("a step was kept whole")
	}
	// A step another member told comes with its time in UTC, as JSON gives
	// it back: it is kept small too, and given back in UTC.
	told := messages.StepEntry(&messages.StepTaken{Conversation: "c1", Action: "observe", At: time.Date(2031, 2, 3, 4, 5, 6, 7, time.UTC)})
	e := keep(told)
	if e.other != nil {
		t.Fatal("a step with its time in UTC was kept whole")
	}
	if back := e.timeline(); back != told {
		t.Fatalf("a step in UTC came back as %+v, not %+v", back, told)
	}
}

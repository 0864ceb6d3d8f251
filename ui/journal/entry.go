package journal

import (
	"math"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// entry is a timeline entry as the journal keeps it: 112 bytes where a
// messages.TimelineEntry takes 208. Steps are nearly every entry a
// conversation has, and a step needs only what this holds; a task or an
// approval, a few per conversation, keeps its whole entry aside.
type entry struct {
	conv    string // as the event said: entries moved from another id keep it
	action  string
	outcome string
	code    messages.Code
	url     string
	at      int64                   // Unix nanoseconds
	other   *messages.TimelineEntry // the whole entry, when it is not a step as above
	used    int32
	max     int32
	tookMs  int32
	utc     bool // at is in UTC (a step another member told), else in the local zone
}

// keep is e as the journal keeps it.
func keep(e messages.TimelineEntry) entry {
	at, loc := e.At.UnixNano(), e.At.Location()
	if e.Kind != messages.EntryStep || e.Site != "" || e.Decision != "" || e.State != "" || e.Text != "" ||
		!fits(int64(e.StepsUsed)) || !fits(int64(e.StepsMax)) || !fits(e.TookMs) ||
		(loc != time.Local && loc != time.UTC) || !time.Unix(0, at).Equal(e.At) {
		whole := e // only this branch's copy goes to the heap
		return entry{other: &whole}
	}
	return entry{conv: e.Conversation, action: e.Action, outcome: e.Outcome, code: e.Code, url: e.URL,
		at: at, used: int32(e.StepsUsed), max: int32(e.StepsMax), tookMs: int32(e.TookMs), utc: loc == time.UTC}
}

// fits reports whether n is kept as it is in an int32.
func fits(n int64) bool { return n >= math.MinInt32 && n <= math.MaxInt32 }

// timeline is the entry as the timeline shows it.
func (e *entry) timeline() messages.TimelineEntry {
	if e.other != nil {
		return *e.other
	}
	at := time.Unix(0, e.at)
	if e.utc {
		at = at.UTC()
	}
	return messages.TimelineEntry{Kind: messages.EntryStep, Conversation: e.conv, At: at,
		Action: e.action, Outcome: e.outcome, Code: e.code, URL: e.url,
		StepsUsed: int(e.used), StepsMax: int(e.max), TookMs: int64(e.tookMs)}
}

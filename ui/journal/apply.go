package journal

import (
	"slices"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// apply records one event; the caller holds the mutex.
func (j *Journal) apply(ev messages.Event) {
	switch e := ev.(type) {
	case *messages.SessionChanged:
		c := j.conv(e.Session.Conversation, e.Session.Agent, e.At)
		j.setLive(c, !e.Ended)
	case *messages.TaskChanged:
		c := j.conv(e.Task.Conversation, e.Task.Agent, e.At)
		text := e.Task.Description
		if e.Task.EndReason != "" {
			text = e.Task.EndReason
		}
		c.add(messages.TimelineEntry{Kind: messages.EntryTask, Conversation: e.Task.Conversation,
			At: e.At, State: e.Task.State, Text: text})
	case *messages.ApprovalRequested:
		r := e.Request
		c := j.conv(r.Conversation, r.Agent, r.At)
		c.approval(r, e.Decision)
	case *messages.StepTaken:
		c := j.conv(e.Conversation, e.Agent, e.At)
		c.add(messages.StepEntry(e))
	case *messages.SnapshotTaken:
		s := e.Snapshot
		c := j.conv(s.Conversation, "", s.At)
		c.snap = &s
	case *messages.ConversationMoved:
		j.move(e.From, e.To)
	}
}

// move hands from's history to to, where its session went: the new id's
// timeline begins with what happened before the move. The new id may have
// its own entries already (its session showed itself before the move was
// stored); they come after.
func (j *Journal) move(from, to string) {
	if len(j.moved) >= MaxConversations {
		clear(j.moved) // old links to ids that moved long ago show an empty view
	}
	j.moved[from] = to
	delete(j.moved, to) // an id moved back to is its own again
	old := j.convs[from]
	if old == nil {
		return
	}
	j.forget(old)
	c := j.conv(to, old.agent, old.last)
	was := c.entries
	c.entries = nil
	for _, e := range slices.Concat(old.entries, was) {
		c.addKept(e)
	}
	if c.snap == nil {
		c.snap = old.snap
	}
}

// conv returns the conversation's record, making it (and making room) if
// needed; an event newer than any before it makes it the newest.
func (j *Journal) conv(id, agent string, at time.Time) *conv {
	c := j.convs[id]
	if c == nil {
		if len(j.convs) >= MaxConversations {
			c = j.evict()
		}
		if c == nil {
			c = &conv{}
		}
		c.id, c.last = id, at
		j.convs[id] = c
		j.listOf(c).front(c)
	}
	if agent != "" {
		c.agent = agent
	}
	if at.After(c.last) {
		c.last = at
		j.listOf(c).front(c)
	}
	return c
}

// setLive marks c live or ended, moving it to that list as its newest.
func (j *Journal) setLive(c *conv, live bool) {
	if c.live != live {
		c.live = live
		j.listOf(c).front(c)
	}
}

func (j *Journal) listOf(c *conv) *recency {
	if c.live {
		return &j.live
	}
	return &j.ended
}

// evict forgets the least recently active conversation, an ended one if
// any: the bound holds however many sessions run, at the same cost for
// every arrival. It returns the forgotten record emptied (nil when none is
// kept), for the arrival, with its room for entries kept: with more
// conversations live than are kept, every step of one not kept evicts
// another, and a new record and room at each would be the collector's to
// pay for.
func (j *Journal) evict() *conv {
	c := j.ended.oldest()
	if c == nil {
		c = j.live.oldest()
	}
	if c == nil {
		return nil
	}
	j.forget(c)
	clear(c.entries) // what the evicted conversation said is not kept alive
	*c = conv{entries: c.entries[:0]}
	return c
}

func (j *Journal) forget(c *conv) {
	c.unlink()
	delete(j.convs, c.id)
}

// trimSlack is how far past MaxEntries a conversation's entries grow before
// the oldest are dropped, in place: one copy every trimSlack steps rather
// than a new slice of MaxEntries at every step.
const trimSlack = MaxEntries / 4

func (c *conv) add(e messages.TimelineEntry) { c.addKept(keep(e)) }

// addKept appends e, dropping the oldest entries when there are too many.
func (c *conv) addKept(e entry) {
	if t := e.other; t != nil && t.Kind == messages.EntryTask && c.sameTask(*t) {
		return // the task's state did not change (a move shows the task again under its new id)
	}
	c.entries = append(c.entries, e)
	if len(c.entries) > MaxEntries+trimSlack {
		n := copy(c.entries, c.entries[len(c.entries)-MaxEntries:])
		clear(c.entries[n:]) // what was dropped is not kept alive
		c.entries = c.entries[:n]
	}
}

// sameTask reports whether the latest task entry says what e says.
func (c *conv) sameTask(e messages.TimelineEntry) bool {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if p := c.entries[i].other; p != nil && p.Kind == messages.EntryTask {
			return p.State == e.State && p.Text == e.Text
		}
	}
	return false
}

// recent is the newest MaxEntries entries, as the timeline shows them.
func (c *conv) recent() []messages.TimelineEntry {
	kept := c.entries[max(0, len(c.entries)-MaxEntries):]
	out := make([]messages.TimelineEntry, len(kept))
	for i := range kept {
		out[i] = kept[i].timeline()
	}
	return out
}

// approval records a site request, or the owner's answer to the one waiting.
func (c *conv) approval(r messages.SiteRequest, decision string) {
	for i := len(c.entries) - 1; i >= 0; i-- {
		e := c.entries[i].other
		if e != nil && e.Kind == messages.EntryApproval && e.Site == r.Site && e.Decision == "" {
			e.Decision = decision
			return
		}
	}
	c.add(messages.TimelineEntry{Kind: messages.EntryApproval, Conversation: r.Conversation, At: r.At,
		Site: r.Site, URL: r.URL, Decision: decision})
}

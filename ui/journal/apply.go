package journal

import (
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// apply records one event; the caller holds the mutex.
func (j *Journal) apply(ev messages.Event) {
	switch e := ev.(type) {
	case *messages.SessionChanged:
		c := j.conv(e.Session.Conversation, e.Session.Agent, e.At)
		c.live = !e.Ended
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
	}
}

// conv returns the conversation's record, making it (and making room) if needed.
func (j *Journal) conv(id, agent string, at time.Time) *conv {
	c := j.convs[id]
	if c == nil {
		if len(j.convs) >= MaxConversations {
			j.evict()
		}
		c = &conv{}
		j.convs[id] = c
	}
	if agent != "" {
		c.agent = agent
	}
	if at.After(c.last) {
		c.last = at
	}
	return c
}

// evict forgets the least recently active conversation that is not live.
func (j *Journal) evict() {
	var oldest string
	var at time.Time
	for id, c := range j.convs {
		if !c.live && (oldest == "" || c.last.Before(at)) {
			oldest, at = id, c.last
		}
	}
	delete(j.convs, oldest)
}

func (c *conv) add(e messages.TimelineEntry) {
	c.entries = append(c.entries, e)
	if n := len(c.entries) - MaxEntries; n > 0 {
		c.entries = append(c.entries[:0:0], c.entries[n:]...)
	}
}

// approval records a site request, or the owner's answer to the one waiting.
func (c *conv) approval(r messages.SiteRequest, decision string) {
	for i := len(c.entries) - 1; i >= 0; i-- {
		e := &c.entries[i]
		if e.Kind == messages.EntryApproval && e.Site == r.Site && e.Decision == "" {
			e.Decision = decision
			return
		}
	}
	c.add(messages.TimelineEntry{Kind: messages.EntryApproval, Conversation: r.Conversation, At: r.At,
		Site: r.Site, URL: r.URL, Decision: decision})
}

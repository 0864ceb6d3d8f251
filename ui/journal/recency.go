package journal

// recency orders conversations by when the journal last heard of them,
// most recent first: a list threaded through the conversations
// themselves, so that moving one to the front, taking one out and finding
// the oldest each cost the same however many are kept.
type recency struct{ root conv } // root.next is the newest, root.prev the oldest

func (r *recency) init() { r.root.next, r.root.prev = &r.root, &r.root }

// front makes c the newest, taking it from the list it was in.
func (r *recency) front(c *conv) {
	c.unlink()
	c.prev, c.next = &r.root, r.root.next
	r.root.next.prev = c
	r.root.next = c
	c.in = r
}

// oldest is the conversation heard of longest ago, or nil.
func (r *recency) oldest() *conv {
	if r.root.prev == &r.root {
		return nil
	}
	return r.root.prev
}

// unlink takes c out of the list it is in, if any.
func (c *conv) unlink() {
	if c.in == nil {
		return
	}
	c.prev.next, c.next.prev = c.next, c.prev
	c.prev, c.next, c.in = nil, nil, nil
}

package loadtest

// Memory checks that heap per conversation did not grow between the sample
// at a quarter of the run and the end (both after GC, with the load held):
// growth per conversation beyond 20 % of the quarter's figure plus 4 KB
// (plus 4 MB shared by all) is a violation. base is the heap before any
// conversation started.
func (c *Checker) Memory(base, quarter, end uint64, convs int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if convs <= 0 {
		return
	}
	per := func(h uint64) float64 { return (float64(h) - float64(base)) / float64(convs) }
	q, e := per(quarter), per(end)
	// 20 % and 4 KB per conversation, and 4 MB for the whole process (GC
	// metadata, pools, and on a loaded machine the pictures of the last
	// acts still being scaled, a megabyte each), which matters only for
	// small runs.
	limit := 0.2*max(q, 0) + 4096 + float64(4<<20)/float64(convs)
	c.checked[FlatMemory]++
	c.memNote = fmtBytes(q) + " per conversation at 25 %, " + fmtBytes(e) + " at the end; limit of growth " + fmtBytes(limit)
	if e-q > limit {
		c.violate(FlatMemory, "heap per conversation grew by %s (from %s to %s), more than %s",
			fmtBytes(e-q), fmtBytes(q), fmtBytes(e), fmtBytes(limit))
	}
}

// Results is every invariant's verdict so far.
func (c *Checker) Results() []Result {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Result, 0, numInvariants)
	for i := Invariant(0); i < numInvariants; i++ {
		r := Result{Name: i.String(), Text: invariantText[i], Checked: c.checked[i],
			Violations: c.violations[i], Examples: c.examples[i]}
		switch {
		case c.na[i] != "":
			r.Status, r.Note = statusNA, c.na[i]
		case r.Violations > 0:
			r.Status = statusFail
		default:
			r.Status = statusPass
		}
		switch i {
		case NoInputWhileHeld:
			if c.tolerated > 0 && r.Note == "" {
				r.Note = fmtCount(c.tolerated) + " inputs of acts in flight as the hold began"
			}
		case FlatMemory:
			if r.Note == "" {
				r.Note = c.memNote
			}
		}
		out = append(out, r)
	}
	return out
}

// Failed reports whether any invariant has a violation.
func (c *Checker) Failed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, n := range c.violations {
		if n > 0 && c.na[i] == "" {
			return true
		}
	}
	return false
}

// Violations is the total count of violations so far.
func (c *Checker) Violations() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var n int64
	for _, v := range c.violations {
		n += v
	}
	return n
}

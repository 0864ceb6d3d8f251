package messages

// Lease is pooled memory an answer's Text lies in (the fenced block the
// session wrote it in). The answer's one holder gives it back with
// FreeText once the text is written out and nothing reads it any more:
// the HTTP API does after copying an answer or a refusal's evidence into
// its response, and MCP after encoding an answer. A holder that never
// frees it (a cluster member that encodes the answer for another) leaves
// the memory to the collector, as any other.
type Lease interface{ Free() }

// lent is what an answer keeps of the lease its text lies in.
type lent struct{ lease Lease }

// Lend says the answer's text lies in l's memory; nil lends nothing.
func (x *lent) Lend(l Lease) { x.lease = l }

// FreeText gives back the memory a's text lies in, if it was lent, and
// empties the text: a holder that reads it afterwards finds nothing rather
// than another answer's bytes. It is called once, by a's one holder.
func FreeText(a Answer) {
	switch r := a.(type) {
	case *Observation:
		if r != nil && r.lease != nil {
			r.Text = ""
			r.free()
		}
	case *Outcome:
		if r != nil && r.lease != nil {
			r.Text = ""
			r.free()
		}
	}
}

func (x *lent) free() {
	l := x.lease
	x.lease = nil
	l.Free()
}

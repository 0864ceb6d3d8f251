package session

import (
	"hash/maphash"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
)

// Everything read from a page reaches the agent inside the one fence of
// its answer: the title, the tabs' titles, the tree and the targets, dom
// and console text, a script's readings. What is outside the fence is
// buddi's own: ids, outcomes, URLs, counts, sentences.

// pageText is what one answer read from the page, written into its fenced
// block as it is gathered, and, once fenced, the values masked in it. It is
// opened before anything is written, and not copied once opened. It holds
// no pointer to its own block and is never written through an interface,
// so that it stays on its caller's stack.
type pageText struct {
	blk    egress.Block
	head   string
	masked []string
}

// open begins the block after head, of kind, with room for size bytes.
func (p *pageText) open(head, kind string, size int) {
	p.blk.Open(head, kind, size)
	p.head = head
}

// b is the block's text, where what is read is written.
func (p *pageText) b() *egress.Text { return p.blk.Text() }

func (p *pageText) title(t string) {
	if t != "" {
		b := p.b()
		b.WriteString("Title: ")
		b.WriteString(oneLine(t))
		b.WriteByte('\n')
	}
}

// tabs lists the conversation's tabs with their titles when asked to or
// when there is more than one: a lone tab's title is the title line, its
// address the answer's.
func (p *pageText) tabs(tabs []messages.Tab, always bool) {
	if len(tabs) == 0 || len(tabs) == 1 && !always {
		return
	}
	b := p.b()
	b.WriteString("Tabs:\n")
	for _, t := range tabs {
		b.WriteString("- ")
		b.WriteString(t.ID)
		if t.Active {
			b.WriteString(" (active)")
		}
		b.WriteByte(' ')
		b.WriteString(strconv.Quote(oneLine(t.Title)))
		b.WriteByte(' ')
		b.WriteString(t.URL)
		b.WriteByte('\n')
	}
}

func (p *pageText) section(label, text string) {
	if text == "" {
		return
	}
	b := p.b()
	if label != "" {
		b.WriteString(label)
		b.WriteString(":\n")
	}
	b.WriteString(text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteByte('\n')
	}
}

// fence is head and then the gathered text in one fenced block, with what
// looks like a key or token and each of owned masked, or head alone (its
// last line without a line break, as a fence's) when nothing was read from
// the page.
func (p *pageText) fence(owned []string) string {
	if p.blk.Len() == 0 {
		p.blk.Drop()
		return strings.TrimSuffix(p.head, "\n")
	}
	text, found := p.blk.Close(owned)
	p.masked = append(p.masked, found...)
	return text
}

// fenced is p's fence; the values it masked are told to the URL policy,
// so that no URL the browser opens may carry one from then on.
func (a *Actor) fenced(p *pageText) string {
	text := p.fence(a.ownedValues())
	if len(p.masked) > 0 && a.cfg.Policy != nil {
		a.cfg.Policy.Masked(p.masked)
	}
	return text
}

// lease is the memory p's fence lies in, which the answer that carries
// the fence lends to its one holder (messages.Lease); nil when it has
// memory of its own.
func (p *pageText) lease() messages.Lease {
	if t := p.blk.Lease(); t != nil {
		return t
	}
	return nil
}

// targets writes, under "Targets:", what binds the observation's refs to
// elements where the tree leaves it open. Every ref line of the tree
// already names one element by its role and name (the tool's description
// says each ref is one element), so the list spells out only elements
// that share a role and name with another, one line per role and name
// with its refs in the tree's order (the first is the first on the page),
// and elements inside a frame, with the frame's number; nothing when
// there are none. It is written straight into the block, with what it
// reads of the tree kept in pooled scratch space.
func (p *pageText) targets(tree string, refs map[string]drivers.Element) {
	if distinct(refs) {
		return
	}
	s := scratchPool.Get().(*targetScratch)
	defer s.put()
	if !s.read(tree, refs) {
		return
	}
	b := p.b()
	b.WriteString("Targets:\n")
	s.writeShared(b, refs)
	s.writeFramed(b, refs)
}

// writeShared writes a line for each role and name that two elements or
// more share, at its first ref, with its refs in the tree's order.
func (s *targetScratch) writeShared(b *egress.Text, refs map[string]drivers.Element) {
	for i, r := range s.order {
		t, ok := refs[r]
		k := roleName{t.Role, t.Name}
		if !ok || t.Name == "" || t.Frame != 0 || s.count[k] < 2 {
			continue
		}
		s.count[k] = 0 // its line is written here, at its first ref
		b.WriteString("- ")
		writeLabel(b, t)
		b.WriteString(": ")
		b.WriteString(r)
		for _, o := range s.order[i+1:] {
			if u, ok := refs[o]; ok && u.Frame == 0 && u.Role == t.Role && u.Name == t.Name {
				b.WriteString(", ")
				b.WriteString(o)
			}
		}
		b.WriteByte('\n')
	}
}

// writeFramed writes a line for each element inside a frame.
func (s *targetScratch) writeFramed(b *egress.Text, refs map[string]drivers.Element) {
	for _, r := range s.order {
		if t, ok := refs[r]; ok && t.Frame > 0 {
			var n [20]byte
			b.WriteString("- ")
			b.WriteString(r)
			b.WriteByte(' ')
			writeLabel(b, t)
			b.WriteString(" [frame=")
			b.Write(strconv.AppendInt(n[:0], int64(t.Frame), 10))
			b.WriteString("]\n")
		}
	}
}

// targetScratch is what targets reads of a tree: its refs once each, in
// its order, and how many named elements outside frames share each role
// and name.
type targetScratch struct {
	order []string
	seen  map[string]struct{}
	count map[roleName]int
}

var scratchPool = sync.Pool{New: func() any {
	return &targetScratch{seen: map[string]struct{}{}, count: map[roleName]int{}}
}}

// maxScratch is the most refs a scratch space is kept for: a huge page's
// maps are not kept for the next observation.
const maxScratch = 4096

// read takes the refs of tree in, and says whether the list has a line:
// a role and name of two elements or more, or an element in a frame.
func (s *targetScratch) read(tree string, refs map[string]drivers.Element) bool {
	lines := false
	for r := range drivers.Refs(tree) {
		if _, dup := s.seen[r]; dup {
			continue
		}
		s.seen[r] = struct{}{}
		s.order = append(s.order, r)
		switch t, ok := refs[r]; {
		case !ok:
		case t.Frame > 0:
			lines = true
		case t.Name != "":
			k := roleName{t.Role, t.Name}
			s.count[k]++
			lines = lines || s.count[k] > 1
		}
	}
	return lines
}

func (s *targetScratch) put() {
	if len(s.order) > maxScratch {
		return
	}
	clear(s.seen)
	clear(s.count)
	clear(s.order)
	s.order = s.order[:0]
	scratchPool.Put(s)
}

// writeLabel writes an element as the targets list names it: its role
// (text when it has none) and its name, quoted on one line.
func writeLabel(b *egress.Text, t drivers.Element) {
	role := t.Role
	if role == "" {
		role = "text"
	}
	b.WriteString(role)
	if t.Name != "" {
		var q [128]byte
		b.WriteByte(' ')
		b.Write(strconv.AppendQuote(q[:0], oneLine(t.Name)))
	}
}

// distinct says whether every element of refs is the one of its role and
// name, and none is in a frame, as in most observations: the targets list
// is then empty, whatever the tree names (each ref the tree names is one of
// refs, or names no element). It reads each element once and keeps a hash
// of its role and name in pooled space; reading the tree's ref marks,
// looking each up and keeping its role and name took three to four times
// as long (BenchmarkTargetsBound: 4.6-5.3 µs against 15.5-19.3). Two roles
// and names of one hash say no, as a shared one does: targets then reads
// the tree, which is exact.
func distinct(refs map[string]drivers.Element) bool {
	s := hashSetPool.Get().(*hashSet)
	defer s.put()
	s.reset(len(refs))
	for _, e := range refs {
		switch {
		case e.Frame > 0:
			return false
		case e.Name != "" && !s.add(maphash.String(roleNameSeed, e.Role)^maphash.String(roleNameSeed, e.Name)*0x9e3779b97f4a7c15):
			return false
		}
	}
	return true
}

// roleName is an element's role and name, which the targets list counts.
type roleName struct{ role, name string }

// roleNameSeed seeds the hashes distinct keeps.
var roleNameSeed = maphash.MakeSeed()

// hashSet is a set of hashes, open addressed in a table of a power of two
// at least twice as long as what it holds; 0 marks a free slot (a hash of
// 0 is kept as 1).
type hashSet struct{ slots []uint64 }

var hashSetPool = sync.Pool{New: func() any { return new(hashSet) }}

// reset empties s for n hashes.
func (s *hashSet) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(s.slots) < size {
		s.slots = make([]uint64, size)
		return
	}
	s.slots = s.slots[:size]
	clear(s.slots)
}

// put keeps s for the next observation, unless a huge page grew it.
func (s *hashSet) put() {
	if len(s.slots) <= 4*maxScratch {
		hashSetPool.Put(s)
	}
}

// add puts h in s, and says false if s already held it.
func (s *hashSet) add(h uint64) bool {
	if h == 0 {
		h = 1
	}
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = h
			return true
		case h:
			return false
		}
	}
}

// oneLine is s on one line, its words one space apart.
func oneLine(s string) string {
	if isOneLine(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isOneLine says s is ASCII words each one space apart, as most titles
// and names are: oneLine would give s back.
func isOneLine(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := range len(s) {
		switch c := s[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '\n', c == '\v', c == '\f', c == '\r':
			return false
		case c == ' ' && s[i-1] == ' ':
			return false
		}
	}
	return true
}

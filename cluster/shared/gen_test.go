package shared

import "testing"

// A home written by this member at one revision and by another member at
// the next, seen in the other order (the watch brought the second write
// before this member handled its own write's answer), is known as the
// second: the member does not take the conversation for its own again.
func TestAWritesAnswerSeenAfterTheNextWriteLeavesTheNextKnown(t *testing.T) {
	g := &gens{m: map[string]*genEntry{}, durable: func(string) bool { return false }}
	const key = "/buddi/homes/c1"
	g.saw(key, 12, 200, true, true, []byte("other"))
	g.saw(key, 11, 100, true, true, []byte("self"))
	e, _ := g.get(key)
	if e.rev != 12 || string(e.val) != "other" || !e.live || e.gen != 200 {
		t.Fatalf("after a late answer the key is known at revision %d as %q (live %v, generation %d); want revision 12, \"other\", live, generation 200", e.rev, e.val, e.live, e.gen)
	}
	g.saw(key, 13, 300, true, true, []byte("self"))
	if e, _ = g.get(key); e.rev != 13 || string(e.val) != "self" {
		t.Fatalf("a later write is known at revision %d as %q; want 13, \"self\"", e.rev, e.val)
	}
}

package shared

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Every signed record carries a generation under its MAC, higher than
// the record it replaced at its key and at least the writer's clock in
// nanoseconds (nextGen; a removal is a signed tombstone with the next
// generation, not a bare delete). A Store
// remembers, per key, the highest generation it has verified and refuses
// a value with a lower one: an older record written back by something
// that reached etcd (a replay of a "not stopped" flag after the owner's
// Stop, of an agent after its removal, of a smaller steps count) is
// refused and logged, once per key and revision.
//
// The bound: a Store knows only what it has seen. The generations of the
// owner's records (the Stop flag, agents, site answers) are kept in a
// file of the member's own (Config.Generations), so a member that
// restarts still refuses what it refused before; a conversation's records
// (homes, tasks, steps) are remembered in memory only, up to maxGens keys.
// What a member never saw (a new data directory, a change made while it
// was down, a conversation it never held) it learns from the running
// members before it reads anything (LearnGenerations, gensync.go): each
// answers with what it has verified, and the highest generation given
// for a key is the least the new member accepts there. What no running
// member saw cannot be learned: a member started when none runs goes on
// with its file, and one with neither does not start unless told to trust
// etcd (the member package says so). A running member that sees an older
// Stop flag written back signs the flag it knows again with a higher
// generation (repairStop).

// maxGens bounds the keys whose generations a Store remembers in memory;
// past it, a conversation's keys are forgotten (the owner's are kept).
const maxGens = 1 << 16

// genEntry is what a Store knows of one key.
type genEntry struct {
	gen      uint64 // the highest generation verified at the key
	rev      int64  // the key's mod revision when last read or written (0: absent)
	revKnown bool   // rev was read or written by this process
	live     bool   // the value at rev verified, is current and is not a tombstone
	val      []byte // that value, kept for homes only (PutAsHome compares it)
}

// gens is a Store's memory of generations, safe for concurrent use.
type gens struct {
	mu      sync.Mutex
	m       map[string]*genEntry
	durable func(key string) bool // whether a key's generation is kept in the file
	path    string                // the file; empty keeps nothing
	warn    func(msg string, args ...any)
	saveMu  sync.Mutex // orders the file's writes
	// fromFile is whether load read a file kept before
	fromFile bool
}

// load reads the file of generations kept before; a missing file is an
// empty memory, and one that does not decode is an error, so a member
// does not forget silently what it refused.
func (g *gens) load() error {
	g.m = map[string]*genEntry{}
	if g.path == "" {
		return nil
	}
	b, err := os.ReadFile(g.path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("shared: reading the generations this member has seen (%s): %w", g.path, err)
	}
	var kept map[string]uint64
	if err := json.Unmarshal(b, &kept); err != nil {
		return fmt.Errorf("shared: the generations file %s does not decode (%w); move it away to start from what etcd holds", g.path, err)
	}
	for k, gen := range kept {
		g.m[k] = &genEntry{gen: gen}
	}
	g.fromFile = true
	return nil
}

// get returns a copy of what is known of key.
func (g *gens) get(key string) (genEntry, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e, ok := g.m[key]
	if !ok {
		return genEntry{}, false
	}
	return *e, true
}

// entry is key's entry, made (and room made for it) when missing; the
// caller holds mu.
func (g *gens) entry(key string) *genEntry {
	e, ok := g.m[key]
	if ok {
		return e
	}
	if len(g.m) >= maxGens {
		for k := range g.m {
			if !g.durable(k) {
				delete(g.m, k)
				break
			}
		}
	}
	e = &genEntry{}
	g.m[key] = e
	return e
}

// saw records what a read or a write found at key: its revision, and,
// when it verified and is not older than the newest known (fresh), its
// generation and whether it is live. It reports the highest generation
// known. What is seen at a revision below the one known is late (a
// write's answer handled after the watch brought the write that followed
// it): it changes nothing but the generation, so the value and revision
// known never go back to an earlier pair.
func (g *gens) saw(key string, rev int64, gen uint64, fresh, live bool, val []byte) (newest uint64) {
	g.mu.Lock()
	e := g.entry(key)
	rose := false
	switch {
	case rev > 0 && e.revKnown && rev < e.rev:
		if fresh {
			rose = gen > e.gen
			e.gen = max(e.gen, gen)
		}
	case fresh:
		e.rev, e.revKnown = rev, true
		rose = gen > e.gen
		e.gen = max(e.gen, gen)
		e.live, e.val = live, val
	default:
		e.rev, e.revKnown = rev, true
		e.live, e.val = false, nil
	}
	newest = e.gen
	g.mu.Unlock()
	if rose && g.durable(key) {
		g.save()
	}
	return newest
}

// newest is the highest generation known at key (0: none).
func (g *gens) newest(key string) uint64 {
	e, _ := g.get(key)
	return e.gen
}

// save writes the durable keys' generations to the file, replacing it
// whole. A write that fails is not fatal: the memory holds them still.
func (g *gens) save() {
	if g.path == "" {
		return
	}
	g.saveMu.Lock()
	defer g.saveMu.Unlock()
	g.mu.Lock()
	kept := map[string]uint64{}
	for k, e := range g.m {
		if g.durable(k) && e.gen > 0 {
			kept[k] = e.gen
		}
	}
	g.mu.Unlock()
	if err := writeFile(g.path, kept); err != nil {
		g.warn("shared: the generations this member has seen could not be kept on disk; it remembers them until it restarts", "file", g.path, "err", err)
	}
}

// writeFile replaces path with kept, through a file beside it renamed.
func writeFile(path string, kept map[string]uint64) error {
	b, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".generations-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	serr := tmp.Sync()
	if cerr := tmp.Close(); werr != nil || serr != nil || cerr != nil {
		_ = os.Remove(tmp.Name())
		return errors.Join(werr, serr, cerr)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		_ = os.Remove(tmp.Name())
		return err
	}
	return nil
}

// seed raises the generation known at each key of best to the one given
// (learned from the other members, LearnGenerations) and returns how many
// rose; what was read at those keys is forgotten, so they are read again.
func (g *gens) seed(best map[string]uint64) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	for k, gen := range best {
		e := g.entry(k)
		if gen > e.gen {
			e.gen = gen
			e.rev, e.revKnown, e.live, e.val = 0, false, false, nil
			n++
		}
	}
	return n
}

// shared is what this memory answers another member (ServeGenerations):
// every key's generation by its key under prefix, up to limit of them, the
// owner's records (kept in the file) first.
func (g *gens) shared(prefix string, limit int) map[string]uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make(map[string]uint64, min(len(g.m), limit))
	for _, durable := range []bool{true, false} {
		for k, e := range g.m {
			if len(out) >= limit {
				return out
			}
			if e.gen > 0 && g.durable(k) == durable && strings.HasPrefix(k, prefix+"/") {
				out[strings.TrimPrefix(k, prefix)] = e.gen
			}
		}
	}
	return out
}

// remembers reports whether the memory was read from a file this member
// kept before (false for a new data directory, or a Store without a file).
func (g *gens) remembers() bool { return g.fromFile }

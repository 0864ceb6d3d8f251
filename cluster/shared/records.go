package shared

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Kind names a family of shared records, kept under <prefix>/<kind>/.
type Kind string

// The kinds of record the members share.
const (
	// Agents are the owner's agents, with their token hashes (never a token).
	Agents Kind = "agents"
	// Tasks are the conversations' tasks, written by the member holding
	// the conversation's session.
	Tasks Kind = "tasks"
	// Homes name the member holding each conversation's session.
	Homes Kind = "homes"
	// Sites are the owner's answers "always" to a site, for every agent.
	Sites Kind = "sites"
	// Steps are the steps each conversation's task has used (TaskSteps),
	// written by the member holding the conversation before it answers a
	// step, so that the budget holds wherever the conversation moves.
	Steps Kind = "steps"
)

// Record is one shared value: its name within its kind, its bytes (JSON
// the caller chose), and the etcd revision that last wrote it.
type Record struct {
	Name  string
	Value []byte
	Rev   int64
}

// ErrExists refuses a Create whose name is taken.
var ErrExists = errors.New("shared: the name is taken in the cluster")

// ErrChanged refuses a write whose revision check failed: another member
// wrote the record since the revision the caller read.
var ErrChanged = errors.New("shared: another member changed the record first")

// recordName is what a record's name may be: what a conversation id or an
// agent name may be (letters, digits, dots, dashes, underscores), and never
// a path.
var recordName = regexp.MustCompile(`^[A-Za-z0-9_.:@-]{1,255}$`)

func (s *Store) recordKey(k Kind, name string) (string, error) {
	if !recordName.MatchString(name) {
		return "", fmt.Errorf("shared: %q is not a record name (1 to 255 letters, digits and _.:@-)", name)
	}
	return s.prefix + "/" + string(k) + "/" + name, nil
}

func (s *Store) kindKey(k Kind) string { return s.prefix + "/" + string(k) + "/" }

// Create writes a new record and fails with ErrExists when the name is
// taken by a live record (a removed one's tombstone is written over): one
// transaction, so of two members creating one name only one succeeds. It
// returns the revision etcd committed.
func (s *Store) Create(ctx context.Context, k Kind, name string, v []byte) (int64, error) {
	key, err := s.recordKey(k, name)
	if err != nil {
		return 0, err
	}
	if err := s.readKey(ctx, key); err != nil {
		return 0, err
	}
	if e, _ := s.gens.get(key); e.live {
		return 0, ErrExists
	}
	resp, err := s.write(ctx, key, v, false, nil, func(e genEntry) error {
		if e.live {
			return ErrExists
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

// PutIf writes a record only if etcd's last write of it is revision rev
// (0: only if there is none, live or removed), and fails with ErrChanged
// (ErrExists for rev 0) otherwise. It returns the revision etcd committed.
func (s *Store) PutIf(ctx context.Context, k Kind, name string, v []byte, rev int64) (int64, error) {
	key, err := s.recordKey(k, name)
	if err != nil {
		return 0, err
	}
	resp, err := s.write(ctx, key, v, false, nil, func(e genEntry) error {
		switch {
		case e.rev == rev:
			return nil
		case rev == 0:
			return ErrExists
		}
		return ErrChanged
	})
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

// ErrNotHome refuses a write of a conversation's record by a member that
// no longer holds the conversation.
var ErrNotHome = errors.New("shared: this member no longer holds the conversation")

// PutAsHome writes a conversation's record of kind k only while the Homes
// record names member as holding it: one transaction, guarded by the home
// record's revision as this Store last read or wrote it, so a member that
// has lost the conversation to another cannot overwrite what the new
// holder writes. It fails with ErrNotHome otherwise (also when the home
// record is forged or older than one seen).
func (s *Store) PutAsHome(ctx context.Context, k Kind, conv, member string, v []byte) (int64, error) {
	key, err := s.recordKey(k, conv)
	if err != nil {
		return 0, err
	}
	home, err := s.recordKey(Homes, conv)
	if err != nil {
		return 0, err
	}
	for range maxWriteAttempts {
		h, err := s.known(ctx, home)
		if err != nil {
			return 0, err
		}
		if !h.live || string(h.val) != member {
			return 0, ErrNotHome
		}
		resp, err := s.write(ctx, key, v, false, []clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(home), "=", h.rev)}, nil)
		if errors.Is(err, errConds) {
			// the home record changed since: read it again
			if err := s.readKey(ctx, home); err != nil {
				return 0, err
			}
			continue
		}
		if err != nil {
			return 0, err
		}
		return resp.Header.Revision, nil
	}
	return 0, &ContendedError{Key: home, Attempts: maxWriteAttempts}
}

// Get reads one record; false when there is none, when it was removed,
// and when the one there is not signed with the cluster's secret or is
// older than one seen (it is logged).
func (s *Store) Get(ctx context.Context, k Kind, name string) (Record, bool, error) {
	rec, ok, err := s.getSigned(ctx, k, name)
	if errors.Is(err, ErrForged) || errors.Is(err, ErrReplayed) {
		return Record{}, false, nil
	}
	return rec, ok, err
}

// getSigned is Get that fails with ErrForged or ErrReplayed (wrapped) for
// a record refused.
func (s *Store) getSigned(ctx context.Context, k Kind, name string) (Record, bool, error) {
	if s.isClosed() {
		return Record{}, false, ErrClosed
	}
	key, err := s.recordKey(k, name)
	if err != nil {
		return Record{}, false, err
	}
	resp, err := s.cli.Get(ctx, key)
	if err != nil {
		return Record{}, false, s.unreachable(err)
	}
	if len(resp.Kvs) == 0 {
		s.absent(key)
		return Record{}, false, nil
	}
	kv := resp.Kvs[0]
	v, live, err := s.open(key, kv.Value, kv.ModRevision)
	if err != nil {
		return Record{}, false, fmt.Errorf("%s: %w", key, err)
	}
	if !live {
		return Record{}, false, nil
	}
	return Record{Name: name, Value: v, Rev: kv.ModRevision}, true, nil
}

// readKey reads key to learn its revision and generation.
func (s *Store) readKey(ctx context.Context, key string) error {
	if s.isClosed() {
		return ErrClosed
	}
	resp, err := s.cli.Get(ctx, key)
	if err != nil {
		return s.unreachable(err)
	}
	s.observe(key, resp.Kvs)
	return nil
}

// known is what this Store knows of key, read from etcd first when it
// does not know the key's revision.
func (s *Store) known(ctx context.Context, key string) (genEntry, error) {
	if e, ok := s.gens.get(key); ok && e.revKnown {
		return e, nil
	}
	if err := s.readKey(ctx, key); err != nil {
		return genEntry{}, err
	}
	e, _ := s.gens.get(key)
	return e, nil
}

// observe notes what kvs (a read of key) hold.
func (s *Store) observe(key string, kvs []*mvccpb.KeyValue) {
	if len(kvs) == 0 {
		s.absent(key)
		return
	}
	_, _, _ = s.open(key, kvs[0].Value, kvs[0].ModRevision)
}

// errConds is a write's own conditions failing while its key was as last
// seen.
var errConds = errors.New("shared: the write's conditions do not hold")

// write signs v (a tombstone when gone) with the generation after the
// newest this Store has seen at key (nextGen) and puts it in one transaction that
// holds only while the key is at the revision last seen there and conds
// hold. check, when given, refuses the write from what is known of the
// key before each attempt. When the key changed meanwhile it is read and
// the write tried again, up to maxWriteAttempts; when only conds failed
// it fails with errConds.
func (s *Store) write(ctx context.Context, key string, v []byte, gone bool, conds []clientv3.Cmp, check func(genEntry) error, opts ...clientv3.OpOption) (*clientv3.TxnResponse, error) {
	if s.isClosed() {
		return nil, ErrClosed
	}
	for attempt := range maxWriteAttempts {
		e, err := s.known(ctx, key)
		if err != nil {
			return nil, err
		}
		if check != nil {
			if err := check(e); err != nil {
				return nil, err
			}
		}
		gen := nextGen(e.gen, s.now())
		cmps := append([]clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(key), "=", e.rev)}, conds...)
		resp, err := s.cli.Txn(ctx).If(cmps...).
			Then(clientv3.OpPut(key, string(s.sign(key, gen, gone, v)), append(opts, clientv3.WithPrevKV())...)).
			Else(clientv3.OpGet(key)).Commit()
		if err != nil {
			return nil, s.unreachable(err)
		}
		if resp.Succeeded {
			s.gens.saw(key, resp.Header.Revision, gen, true, !gone, s.kept(key, signed{v: v, gone: gone}))
			return resp, nil
		}
		kvs := resp.Responses[0].GetResponseRange().Kvs
		if modRevision(kvs) == e.rev {
			return nil, errConds
		}
		s.observe(key, kvs)
		if err := backOff(ctx, attempt); err != nil {
			return nil, s.unreachable(err)
		}
	}
	return nil, &ContendedError{Key: key, Attempts: maxWriteAttempts}
}

// nextGen is the generation of a record written over one of generation
// newest: past it, and at least the time of the write in nanoseconds, so
// that a member that knows nothing of a key (a member restarted after
// its lease let its key go, a key deleted past the secret) still writes
// one newer than any written before it, while clocks agree.
func nextGen(newest uint64, now time.Time) uint64 {
	return max(newest+1, uint64(max(now.UnixNano(), 0)))
}

// backOff waits a random while, longer with each attempt lost to another
// writer (up to 32 ms), so that hosts writing one key at once do not keep
// colliding.
func backOff(ctx context.Context, attempt int) error {
	t := time.NewTimer(time.Duration(rand.Int64N(int64(time.Millisecond) << min(attempt, 5))))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Swap makes v the record and returns what it replaced (found false when
// there was none, it was removed, or what was there was refused), in one
// transaction.
func (s *Store) Swap(ctx context.Context, k Kind, name string, v []byte) (old Record, found bool, err error) {
	key, err := s.recordKey(k, name)
	if err != nil {
		return Record{}, false, err
	}
	var before genEntry
	resp, err := s.write(ctx, key, v, false, nil, func(e genEntry) error { before = e; return nil })
	if err != nil {
		return Record{}, false, err
	}
	prev := resp.Responses[0].GetResponsePut().PrevKv
	if prev == nil || !before.live {
		return Record{}, false, nil
	}
	rec, err := s.verify(key, prev.Value)
	if err != nil || rec.gone {
		return Record{}, false, nil
	}
	return Record{Name: name, Value: rec.v, Rev: prev.ModRevision}, true, nil
}

// Put makes v the record, whatever was there, and returns the revision
// etcd committed.
func (s *Store) Put(ctx context.Context, k Kind, name string, v []byte) (int64, error) {
	key, err := s.recordKey(k, name)
	if err != nil {
		return 0, err
	}
	resp, err := s.write(ctx, key, v, false, nil, func(genEntry) error { return nil })
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

// Delete removes a record: a signed tombstone takes its place, so an
// earlier record written back over it is refused by every member that saw
// the removal. It returns the revision etcd committed; removing one that
// is not there writes nothing, and returns 0.
func (s *Store) Delete(ctx context.Context, k Kind, name string) (int64, error) {
	key, err := s.recordKey(k, name)
	if err != nil {
		return 0, err
	}
	resp, err := s.write(ctx, key, nil, true, nil, func(e genEntry) error {
		if !e.live && e.rev == 0 && e.gen == 0 {
			return errNothing
		}
		return nil
	})
	switch {
	case errors.Is(err, errNothing):
		return 0, nil
	case err != nil:
		return 0, err
	}
	return resp.Header.Revision, nil
}

// errNothing is a removal of a record never there.
var errNothing = errors.New("shared: nothing to remove")

// List reads every live record of a kind, by name, and the revision read
// at; a record refused (not signed with the cluster's secret, or older
// than one seen) is left out and logged, and a removed one is left out.
func (s *Store) List(ctx context.Context, k Kind) ([]Record, int64, error) {
	if s.isClosed() {
		return nil, 0, ErrClosed
	}
	resp, err := s.cli.Get(ctx, s.kindKey(k), clientv3.WithPrefix())
	if err != nil {
		return nil, 0, s.unreachable(err)
	}
	out := make([]Record, 0, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		v, live, err := s.open(string(kv.Key), kv.Value, kv.ModRevision)
		if err != nil || !live {
			continue
		}
		out = append(out, Record{Name: string(kv.Key[len(s.kindKey(k)):]), Value: v, Rev: kv.ModRevision})
	}
	return out, resp.Header.Revision, nil
}

// WatchList lists a kind's records and calls fn with them before it
// returns (unless etcd does not answer then), and again, from a goroutine
// of its own, after every change: each call has the whole list and the
// revision it was read at, so a change missed while etcd was away is never
// lost, and a list read before a write of the caller's can be told from
// one read after it (it may reach the caller after the write's answer).
// Every list read is passed on, even one the same as the last: a caller
// that set aside a list older than its own write is then sure to get a
// newer one. It ends when ctx is cancelled or the Store is closed. fn runs
// on one goroutine at a time and must not block for long or call Close.
func (s *Store) WatchList(ctx context.Context, k Kind, fn func([]Record, int64)) error {
	return watchPrefix(ctx, &listWatcher[Record]{s: s, prefix: s.kindKey(k), fn: fn,
		read: func(ctx context.Context) ([]Record, int64, error) { return s.List(ctx, k) }})
}

package shared

import (
	"context"
	"errors"
	"fmt"
	"regexp"

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
// taken: one transaction, so of two members creating one name only one
// succeeds. It returns the revision etcd committed.
func (s *Store) Create(ctx context.Context, k Kind, name string, v []byte) (int64, error) {
	return s.PutIf(ctx, k, name, v, 0)
}

// PutIf writes a record only if etcd's last write of it is revision rev
// (0: only if it does not exist), and fails with ErrChanged (ErrExists for
// rev 0) otherwise. It returns the revision etcd committed.
func (s *Store) PutIf(ctx context.Context, k Kind, name string, v []byte, rev int64) (int64, error) {
	if s.isClosed() {
		return 0, ErrClosed
	}
	key, err := s.recordKey(k, name)
	if err != nil {
		return 0, err
	}
	resp, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
		Then(clientv3.OpPut(key, string(s.stored(k, key, v)))).Commit()
	switch {
	case err != nil:
		return 0, s.unreachable(err)
	case !resp.Succeeded && rev == 0:
		return 0, ErrExists
	case !resp.Succeeded:
		return 0, ErrChanged
	}
	return resp.Header.Revision, nil
}

// ErrNotHome refuses a write of a conversation's record by a member that
// no longer holds the conversation.
var ErrNotHome = errors.New("shared: this member no longer holds the conversation")

// PutAsHome writes a conversation's record of kind k only while the Homes
// record names member as holding it: one transaction, so a member that has
// lost the conversation to another cannot overwrite what the new holder
// writes. It fails with ErrNotHome otherwise.
func (s *Store) PutAsHome(ctx context.Context, k Kind, conv, member string, v []byte) (int64, error) {
	if s.isClosed() {
		return 0, ErrClosed
	}
	key, err := s.recordKey(k, conv)
	if err != nil {
		return 0, err
	}
	home, err := s.recordKey(Homes, conv)
	if err != nil {
		return 0, err
	}
	resp, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.Value(home), "=", member)).
		Then(clientv3.OpPut(key, string(s.stored(k, key, v)))).Commit()
	switch {
	case err != nil:
		return 0, s.unreachable(err)
	case !resp.Succeeded:
		return 0, ErrNotHome
	}
	return resp.Header.Revision, nil
}

// Get reads one record; false when there is none, and when the one there
// is not signed with the cluster's secret (it is logged).
func (s *Store) Get(ctx context.Context, k Kind, name string) (Record, bool, error) {
	rec, ok, err := s.getSigned(ctx, k, name)
	if errors.Is(err, ErrForged) {
		return Record{}, false, nil
	}
	return rec, ok, err
}

// getSigned is Get that fails with ErrForged (wrapped) for a record that
// does not verify.
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
		return Record{}, false, nil
	}
	kv := resp.Kvs[0]
	v, err := s.opened(k, kv.Key, kv.Value, kv.ModRevision)
	if err != nil {
		return Record{}, false, fmt.Errorf("%s: %w", key, err)
	}
	return Record{Name: name, Value: v, Rev: kv.ModRevision}, true, nil
}

// Swap makes v the record and returns what it replaced (found false when
// there was none, or what was there was not signed with the cluster's
// secret), in one transaction.
func (s *Store) Swap(ctx context.Context, k Kind, name string, v []byte) (old Record, found bool, err error) {
	if s.isClosed() {
		return Record{}, false, ErrClosed
	}
	key, err := s.recordKey(k, name)
	if err != nil {
		return Record{}, false, err
	}
	resp, err := s.cli.Put(ctx, key, string(s.stored(k, key, v)), clientv3.WithPrevKV())
	if err != nil {
		return Record{}, false, s.unreachable(err)
	}
	if resp.PrevKv == nil {
		return Record{}, false, nil
	}
	prev, err := s.opened(k, resp.PrevKv.Key, resp.PrevKv.Value, resp.PrevKv.ModRevision)
	if err != nil {
		return Record{}, false, nil
	}
	return Record{Name: name, Value: prev, Rev: resp.PrevKv.ModRevision}, true, nil
}

// Delete removes a record; removing one that is not there is no error.
func (s *Store) Delete(ctx context.Context, k Kind, name string) error {
	if s.isClosed() {
		return ErrClosed
	}
	key, err := s.recordKey(k, name)
	if err != nil {
		return err
	}
	if _, err := s.cli.Delete(ctx, key); err != nil {
		return s.unreachable(err)
	}
	return nil
}

// List reads every record of a kind, by name, and the revision read at;
// a record not signed with the cluster's secret is left out (and logged).
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
		v, err := s.opened(k, kv.Key, kv.Value, kv.ModRevision)
		if err != nil {
			continue
		}
		out = append(out, Record{Name: string(kv.Key[len(s.kindKey(k)):]), Value: v, Rev: kv.ModRevision})
	}
	return out, resp.Header.Revision, nil
}

// WatchList lists a kind's records and calls fn with them before it
// returns (unless etcd does not answer then), and again, from a goroutine
// of its own, after every change: each call has the whole list, so a
// change missed while etcd was away is never lost. It ends when ctx is
// cancelled or the Store is closed. fn runs on one goroutine at a time
// and must not block for long or call Close.
func (s *Store) WatchList(ctx context.Context, k Kind, fn func([]Record)) error {
	return watchPrefix(ctx, &listWatcher[Record]{s: s, prefix: s.kindKey(k), fn: fn,
		read: func(ctx context.Context) ([]Record, int64, error) { return s.List(ctx, k) },
		same: func(a, b Record) bool { return a.Name == b.Name && a.Rev == b.Rev }})
}

// stored is what is written for a record of kind k at key: signed when
// the kind carries the owner's authority.
func (s *Store) stored(k Kind, key string, v []byte) []byte {
	if !signedKind(k) {
		return v
	}
	return s.sign(key, v)
}

// opened is a stored record's value, verified when its kind is signed; one
// that does not verify is logged (once per key and revision) and refused
// with ErrForged.
func (s *Store) opened(k Kind, key, stored []byte, rev int64) ([]byte, error) {
	if !signedKind(k) {
		return stored, nil
	}
	v, err := s.verify(string(key), stored)
	if err != nil {
		s.refuse(string(key), rev, forgedWhy)
		return nil, err
	}
	return v, nil
}

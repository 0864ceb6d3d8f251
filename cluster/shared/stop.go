package shared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// maxWriteAttempts bounds how often SetStop re-reads and retries after
// another host changed the key between its read and its write.
const maxWriteAttempts = 16

// State is the Stop flag as etcd holds it.
type State struct {
	// Stopped is true while an owner's Stop is in force, and also when the
	// stored value could not be decoded (failing closed).
	Stopped bool
	// At is when the owner asked for the Stop or the resume.
	At time.Time
	// Rev is the etcd revision that committed this state; zero if the flag
	// was never written.
	Rev int64
}

// stopValue is the JSON stored, signed, at <prefix>/stop. Seq grows with
// every write: a member refuses a flag whose Seq is lower than the highest
// it has seen, so an older signed Stop or resume written back (replayed)
// does not count.
type stopValue struct {
	Version int       `json:"v"`
	Stopped bool      `json:"stopped"`
	At      time.Time `json:"at"`
	Seq     uint64    `json:"seq"`
}

const stopVersion = 2

// stopValue is the signed value of a Stop flag.
func (s *Store) stopValue(stopped bool, seq uint64, at time.Time) ([]byte, error) {
	val, err := json.Marshal(stopValue{Version: stopVersion, Stopped: stopped, At: at.UTC(), Seq: seq})
	if err != nil {
		return nil, fmt.Errorf("shared: encoding the Stop flag: %w", err)
	}
	return s.sign(s.stopKey, val), nil
}

// nextSeq is the sequence of a flag written over kvs: past both what is
// stored (when it verifies) and the highest this Store has seen.
func (s *Store) nextSeq(kvs []*mvccpb.KeyValue) uint64 {
	seq := s.stopSeq.Load()
	if len(kvs) > 0 {
		if raw, err := s.verify(s.stopKey, kvs[0].Value); err == nil {
			var v stopValue
			if json.Unmarshal(raw, &v) == nil {
				seq = max(seq, v.Seq)
			}
		}
	}
	return seq + 1
}

// saw raises the highest sequence seen to seq.
func (s *Store) saw(seq uint64) {
	for {
		old := s.stopSeq.Load()
		if seq <= old || s.stopSeq.CompareAndSwap(old, seq) {
			return
		}
	}
}

// SetStop writes the Stop flag (stopped false is a resume) and returns the
// revision etcd committed it at. It returns only after the commit, so a nil
// error means every host's watch will deliver it. The write is a
// transaction that succeeds only if the key is unchanged since this host
// read it; when another host wrote in between, SetStop reads again and
// retries, up to a bound, then fails with a *ContendedError. A malformed
// stored value is overwritten: an owner's Stop or resume repairs it.
func (s *Store) SetStop(ctx context.Context, stopped bool, at time.Time) (int64, error) {
	if s.isClosed() {
		return 0, ErrClosed
	}
	got, err := s.cli.Get(ctx, s.stopKey)
	if err != nil {
		return 0, s.unreachable(err)
	}
	seen, kvs := modRevision(got.Kvs), got.Kvs
	for range maxWriteAttempts {
		seq := s.nextSeq(kvs)
		val, err := s.stopValue(stopped, seq, at)
		if err != nil {
			return 0, err
		}
		resp, err := s.cli.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(s.stopKey), "=", seen)).
			Then(clientv3.OpPut(s.stopKey, string(val))).
			Else(clientv3.OpGet(s.stopKey)).
			Commit()
		if err != nil {
			return 0, s.unreachable(err)
		}
		if resp.Succeeded {
			s.saw(seq)
			return resp.Header.Revision, nil
		}
		kvs = resp.Responses[0].GetResponseRange().Kvs
		seen = modRevision(kvs)
	}
	return 0, &ContendedError{Key: s.stopKey, Attempts: maxWriteAttempts}
}

// Stop reads the Stop flag linearizably: the answer reflects every write
// committed before the call. If the stored value cannot be decoded, Stop
// returns a State with Stopped true together with a *MalformedError, so a
// caller that ignores the error still fails closed.
func (s *Store) Stop(ctx context.Context) (State, error) {
	st, _, err := s.readStop(ctx)
	return st, err
}

// readStop reads the flag and also returns the store's revision at the
// read, from which a watch resumes.
func (s *Store) readStop(ctx context.Context) (State, int64, error) {
	if s.isClosed() {
		return State{Stopped: true}, 0, ErrClosed
	}
	resp, err := s.cli.Get(ctx, s.stopKey)
	if err != nil {
		return State{Stopped: true}, 0, s.unreachable(err)
	}
	if len(resp.Kvs) == 0 {
		st, err := s.missingStop(resp.Header.Revision)
		return st, resp.Header.Revision, err
	}
	st, err := s.decodeStop(resp.Kvs[0])
	return st, resp.Header.Revision, err
}

// errStopMissing is a Stop flag that is not there: once the first member
// signed one, only a raw delete removes it, which must not lift a Stop.
var errStopMissing = errors.New("there is no Stop flag, which members always keep: it was deleted")

// missingStop is the State of a Stop flag that is not there: stopped.
func (s *Store) missingStop(rev int64) (State, error) {
	s.refuse(s.stopKey, rev, errStopMissing.Error())
	return State{Stopped: true, Rev: rev}, &MalformedError{Key: s.stopKey, Err: errStopMissing}
}

// decodeStop turns a stored key into a State; a value it cannot decode,
// one not signed with the cluster's secret, and one older than the newest
// this Store has seen (a replay) yield Stopped true and a *MalformedError.
func (s *Store) decodeStop(kv *mvccpb.KeyValue) (State, error) {
	var v stopValue
	raw, err := s.verify(s.stopKey, kv.Value)
	if err != nil {
		s.refuse(s.stopKey, kv.ModRevision, forgedWhy)
		return State{Stopped: true, Rev: kv.ModRevision}, &MalformedError{Key: s.stopKey, Value: kv.Value, Err: err}
	}
	err = json.Unmarshal(raw, &v)
	if err == nil && v.Version != stopVersion {
		err = fmt.Errorf("version %d, where this buddi reads version %d", v.Version, stopVersion)
	}
	if err == nil && v.At.IsZero() {
		err = errors.New("no time is recorded")
	}
	if err == nil && v.Seq < s.stopSeq.Load() {
		err = fmt.Errorf("its sequence %d is older than %d, which this member has seen: an earlier flag was written back", v.Seq, s.stopSeq.Load())
		s.refuse(s.stopKey, kv.ModRevision, err.Error())
	}
	if err != nil {
		return State{Stopped: true, Rev: kv.ModRevision}, &MalformedError{Key: s.stopKey, Value: kv.Value, Err: err}
	}
	s.saw(v.Seq)
	return State{Stopped: v.Stopped, At: v.At, Rev: kv.ModRevision}, nil
}

func modRevision(kvs []*mvccpb.KeyValue) int64 {
	if len(kvs) == 0 {
		return 0
	}
	return kvs[0].ModRevision
}

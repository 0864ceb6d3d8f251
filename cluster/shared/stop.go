package shared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
)

// maxWriteAttempts bounds how often a write re-reads and retries after
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

// stopValue is the JSON stored, signed, at <prefix>/stop. Its
// generation (gen.go) grows with every write: a member refuses a flag
// older than the newest it has seen, so an earlier Stop or resume written
// back (replayed) does not count.
type stopValue struct {
	Version int       `json:"v"`
	Stopped bool      `json:"stopped"`
	At      time.Time `json:"at"`
}

const stopVersion = 3

// stopVersionV1 is the Stop flag a first-version record holds (with a
// sequence number of its own, which its generation 0 replaces): read, so
// that an upgrade keeps the owner's Stop or resume.
const stopVersionV1 = 2

// stopJSON is the value of a Stop flag, before it is signed.
func stopJSON(stopped bool, at time.Time) ([]byte, error) {
	val, err := json.Marshal(stopValue{Version: stopVersion, Stopped: stopped, At: at.UTC()})
	if err != nil {
		return nil, fmt.Errorf("shared: encoding the Stop flag: %w", err)
	}
	return val, nil
}

// SetStop writes the Stop flag (stopped false is a resume) and returns the
// revision etcd committed it at. It returns only after the commit, so a nil
// error means every host's watch will deliver it. The write is a
// transaction that succeeds only if the key is unchanged since this host
// last read it; when another host wrote in between, SetStop reads again and
// retries, up to a bound, then fails with a *ContendedError. A malformed,
// forged or replayed stored value is overwritten: an owner's Stop or
// resume repairs it.
func (s *Store) SetStop(ctx context.Context, stopped bool, at time.Time) (int64, error) {
	val, err := stopJSON(stopped, at)
	if err != nil {
		return 0, err
	}
	resp, err := s.write(ctx, s.stopKey, val, false, nil, nil)
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

// repairStop signs again, with a newer generation, the flag this Store
// last accepted, after it found an older one written back over it; a Stop
// in either counts (the flag resolves to stopped when they differ), so a
// repair never lifts a Stop. A member that joins later then reads the
// owner's flag, not the replayed one. Nothing is written when the flag
// was replaced meanwhile by one not older (another member repaired it, or
// the owner wrote).
func (s *Store) repairStop(ctx context.Context, known State, replayed []byte) {
	stopped := known.Stopped
	if rec, err := s.verify(s.stopKey, replayed); err == nil {
		var v stopValue
		if json.Unmarshal(rec.v, &v) != nil || v.Stopped {
			stopped = true
		}
	}
	at := known.At
	if at.IsZero() {
		at = s.now()
	}
	val, err := stopJSON(stopped, at)
	if err != nil {
		return
	}
	rctx, cancel := context.WithTimeout(ctx, registerTimeout)
	defer cancel()
	_, err = s.write(rctx, s.stopKey, val, false, nil, func(e genEntry) error {
		if e.live {
			return errNothing
		}
		return nil
	})
	if err == nil {
		s.log.Warn("shared: the Stop flag this member last accepted is signed again over the older one written back", "flag", s.stopKey, "stopped", stopped)
	}
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
		s.absent(s.stopKey)
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
// this Store has seen (a replay: ErrReplayed) yield Stopped true and a
// *MalformedError.
func (s *Store) decodeStop(kv *mvccpb.KeyValue) (State, error) {
	var v stopValue
	raw, live, err := s.open(s.stopKey, kv.Value, kv.ModRevision)
	if err == nil && !live {
		err = errStopMissing
	}
	if err == nil {
		err = json.Unmarshal(raw, &v)
	}
	if err == nil && v.Version != stopVersion && v.Version != stopVersionV1 {
		err = fmt.Errorf("version %d, where this buddi reads version %d", v.Version, stopVersion)
	}
	if err == nil && v.At.IsZero() {
		err = errors.New("no time is recorded")
	}
	if err != nil {
		return State{Stopped: true, Rev: kv.ModRevision}, &MalformedError{Key: s.stopKey, Value: kv.Value, Err: err}
	}
	return State{Stopped: v.Stopped, At: v.At, Rev: kv.ModRevision}, nil
}

func modRevision(kvs []*mvccpb.KeyValue) int64 {
	if len(kvs) == 0 {
		return 0
	}
	return kvs[0].ModRevision
}

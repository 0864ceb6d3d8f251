package shared

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Records shared in etcd (the Stop flag, agents, tasks, their steps,
// site answers, homes and the member list) are stored signed:
//
//	buddi-signed-v2 <HMAC-SHA256 in hex> <generation> <live|gone>\n<JSON>
//
// The MAC, under the key derived from the cluster's secret
// (Secret.RecordKey), covers the record's etcd key, its generation,
// whether it is a tombstone and its value, so a signed value moved to
// another key, given another generation or turned into a removal does not
// verify. Every read, list and watch verifies; what does not verify was
// written by someone without the secret, is logged once per key and
// revision, and counts as absent (an agent, a task, a site answer, a
// home, a member), as an unknown budget (steps: an error), or as a Stop
// (the Stop flag: failing closed). Generations are gen.go's.

const signedMagic = "buddi-signed-v2 "

// ErrForged says a record's signature does not verify: it was not written
// by a member holding this cluster's secret.
var ErrForged = errors.New("shared: the record is not signed with this cluster's secret")

// ErrReplayed says a record verifies but is older than one this member
// has seen at its key: an earlier record was written back.
var ErrReplayed = errors.New("shared: the record is older than one this member has seen at its key (an earlier record was written back)")

// signed is a verified record: its value, generation and whether it is a
// tombstone (a removal).
type signed struct {
	v    []byte
	gen  uint64
	gone bool
}

func (s *Store) sign(key string, gen uint64, gone bool, v []byte) []byte {
	out := make([]byte, 0, len(signedMagic)+64+24+len(v))
	out = append(out, signedMagic...)
	out = append(out, hex.EncodeToString(s.recordMAC(key, gen, gone, v))...)
	out = append(out, ' ')
	out = strconv.AppendUint(out, gen, 10)
	out = append(out, ' ')
	out = append(out, liveness(gone)...)
	out = append(out, '\n')
	return append(out, v...)
}

func liveness(gone bool) string {
	if gone {
		return "gone"
	}
	return "live"
}

func (s *Store) recordMAC(key string, gen uint64, gone bool, v []byte) []byte {
	h := hmac.New(sha256.New, s.signKey)
	h.Write([]byte(strconv.Itoa(len(key))))
	h.Write([]byte{':'})
	h.Write([]byte(key))
	h.Write([]byte(" " + strconv.FormatUint(gen, 10) + " " + liveness(gone) + "\n"))
	h.Write(v)
	return h.Sum(nil)
}

// signedMagicV1 marks a record signed by a member of the version before
// generations: its MAC covers the key and the value only.
const signedMagicV1 = "buddi-signed-v1 "

// verify returns what a signed record holds, or ErrForged. A record of
// the first version (written before an upgrade) verifies under its own MAC
// as a live record of generation 0: it is read, and the next write of its
// key replaces it with a record of this version; a member that has seen a
// newer generation at the key refuses it as a replay.
func (s *Store) verify(key string, stored []byte) (signed, error) {
	if old, ok := bytes.CutPrefix(stored, []byte(signedMagicV1)); ok {
		return s.verifyV1(key, old)
	}
	rest, ok := bytes.CutPrefix(stored, []byte(signedMagic))
	if !ok {
		return signed{}, ErrForged
	}
	head, v, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return signed{}, ErrForged
	}
	f := strings.Fields(string(head))
	if len(f) != 3 || (f[2] != "live" && f[2] != "gone") {
		return signed{}, ErrForged
	}
	gen, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return signed{}, ErrForged
	}
	got, err := hex.DecodeString(f[0])
	gone := f[2] == "gone"
	if err != nil || !hmac.Equal(got, s.recordMAC(key, gen, gone, v)) {
		return signed{}, ErrForged
	}
	return signed{v: v, gen: gen, gone: gone}, nil
}

// verifyV1 verifies a first-version record: `<mac>\n<json>`, the MAC over
// the key's length, the key and the value.
func (s *Store) verifyV1(key string, rest []byte) (signed, error) {
	mac, v, ok := bytes.Cut(rest, []byte{'\n'})
	got, err := hex.DecodeString(string(mac))
	if !ok || err != nil {
		return signed{}, ErrForged
	}
	h := hmac.New(sha256.New, s.signKey)
	h.Write([]byte(strconv.Itoa(len(key))))
	h.Write([]byte{':'})
	h.Write([]byte(key))
	h.Write(v)
	if !hmac.Equal(got, h.Sum(nil)) {
		return signed{}, ErrForged
	}
	return signed{v: v}, nil
}

// open verifies the value stored at key (at revision rev) and checks its
// generation against the newest this Store has seen there: what does not
// verify is refused with ErrForged, what is older with ErrReplayed (each
// logged once per key and revision). A tombstone opens with live false.
func (s *Store) open(key string, stored []byte, rev int64) (v []byte, live bool, err error) {
	rec, err := s.verify(key, stored)
	if err != nil {
		s.gens.saw(key, rev, 0, false, false, nil)
		s.refuse(key, rev, forgedWhy)
		return nil, false, ErrForged
	}
	if newest := s.gens.newest(key); rec.gen < newest {
		s.gens.saw(key, rev, 0, false, false, nil)
		s.refuse(key, rev, fmt.Sprintf("its generation %d is older than %d, which this member has seen there: an earlier record was written back", rec.gen, newest))
		return nil, false, ErrReplayed
	}
	s.gens.saw(key, rev, rec.gen, true, !rec.gone, s.kept(key, rec))
	return rec.v, !rec.gone, nil
}

// kept is the value the memory of generations keeps for key: a home's,
// which PutAsHome compares.
func (s *Store) kept(key string, rec signed) []byte {
	if rec.gone || !strings.HasPrefix(key, s.kindKey(Homes)) {
		return nil
	}
	return bytes.Clone(rec.v)
}

// absent records that key holds nothing (at the store's revision).
func (s *Store) absent(key string) { s.gens.saw(key, 0, 0, false, false, nil) }

// refusals remembers which refused records were logged, so each is logged
// once per key and revision.
type refusals struct {
	mu     sync.Mutex
	logged map[string]int64 // key → revision last logged
}

// maxRefusals bounds the refusals remembered; past it they are forgotten
// (and a record refused again is logged again).
const maxRefusals = 4096

// refuse logs, once per key and revision, that the record at key was
// refused and why.
func (s *Store) refuse(key string, rev int64, why string) {
	r := &s.refused
	r.mu.Lock()
	if r.logged == nil || len(r.logged) >= maxRefusals {
		r.logged = map[string]int64{}
	}
	seen, ok := r.logged[key]
	r.logged[key] = rev
	r.mu.Unlock()
	if ok && seen == rev {
		return
	}
	s.log.Warn("shared: a record in etcd is refused: "+why, "key", key, "revision", rev)
}

const forgedWhy = "it is not signed with this cluster's secret (written by something that reached etcd without being a member)"

// secretRecord is the value of <prefix>/secret: signed, it proves the
// members that wrote it hold the same secret as whoever verifies it.
var secretRecord = []byte(`{"v":1}`)

// SecretMismatchError refuses a member whose secret is not the running
// cluster's.
type SecretMismatchError struct{ Key string }

func (e *SecretMismatchError) Error() string {
	return fmt.Sprintf("This member's cluster secret is not the one the running members use (etcd's check record %s was signed with another); copy the cluster.secret file of a running member to this host, in place of this one, and start it again.", e.Key)
}

// Join makes this Store's member one of the cluster: the first member to
// join signs the secret check record and a Stop flag saying "not stopped"
// (from then on a missing Stop flag counts as a Stop); a later member
// checks that the check record verifies under its secret and fails with a
// *SecretMismatchError when it does not.
func (s *Store) Join(ctx context.Context) error {
	if s.isClosed() {
		return ErrClosed
	}
	val, err := stopJSON(false, s.now())
	if err != nil {
		return err
	}
	stop := s.sign(s.stopKey, 1, false, val)
	check := s.sign(s.secretKey, 1, false, secretRecord)
	absent := func(k string) clientv3.Cmp { return clientv3.Compare(clientv3.CreateRevision(k), "=", 0) }
	resp, err := s.cli.Txn(ctx).If(absent(s.secretKey), absent(s.stopKey)).
		Then(clientv3.OpPut(s.secretKey, string(check)), clientv3.OpPut(s.stopKey, string(stop))).Commit()
	if err != nil {
		return s.unreachable(err)
	}
	s.founded = resp.Succeeded
	if !resp.Succeeded {
		// a cluster that ran before signing (its Stop flag is there): the
		// check record is made, and the unsigned flag counts as a Stop
		// until the owner resumes
		if _, err := s.cli.Txn(ctx).If(absent(s.secretKey)).Then(clientv3.OpPut(s.secretKey, string(check))).Commit(); err != nil {
			return s.unreachable(err)
		}
	}
	ok, err := s.CheckSecret(ctx)
	if err == nil && !ok {
		err = &SecretMismatchError{Key: s.secretKey}
	}
	return err
}

// Founded reports whether this Store's Join founded the cluster: etcd
// held no check record and no Stop flag before it.
func (s *Store) Founded() bool { return s.founded }

// Remembers reports whether this Store read the generations it knows from
// the file its member kept before (Config.Generations): false for a member
// that has never run on its data directory, or whose file is gone.
func (s *Store) Remembers() bool { return s.gens.remembers() }

// CheckSecret reports whether etcd holds the secret check record, and
// fails with a *SecretMismatchError when it holds one this Store's secret
// did not sign. It writes nothing.
func (s *Store) CheckSecret(ctx context.Context) (bool, error) {
	if s.isClosed() {
		return false, ErrClosed
	}
	got, err := s.cli.Get(ctx, s.secretKey)
	if err != nil {
		return false, s.unreachable(err)
	}
	if len(got.Kvs) == 0 {
		return false, nil
	}
	rec, err := s.verify(s.secretKey, got.Kvs[0].Value)
	if err != nil || rec.gone || !bytes.Equal(rec.v, secretRecord) {
		return true, &SecretMismatchError{Key: s.secretKey}
	}
	return true, nil
}

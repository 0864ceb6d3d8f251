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
	"sync"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Records that carry the owner's authority (the Stop flag, agents, tasks,
// their steps, site answers) are stored signed:
//
//	buddi-signed-v1 <HMAC-SHA256 in hex>\n<the record's JSON>
//
// The MAC, under the key derived from the cluster's secret
// (Secret.RecordKey), covers the record's etcd key and its value, so a
// signed value moved to another key does not verify. Every read, list and
// watch verifies; what does not verify was written by someone without the
// secret, is logged once per key and revision, and counts as absent (an
// agent, a task, a site answer), as an unknown budget (steps: an error),
// or as a Stop (the Stop flag: failing closed).

const signedMagic = "buddi-signed-v1 "

// ErrForged says a record's signature does not verify: it was not written
// by a member holding this cluster's secret.
var ErrForged = errors.New("shared: the record is not signed with this cluster's secret")

// signedKind reports whether records of k carry the owner's authority and
// are therefore signed. A conversation's Homes record is not: it names the
// member holding it, compared as is in etcd's transactions.
func signedKind(k Kind) bool { return k != Homes }

func (s *Store) sign(key string, v []byte) []byte {
	out := make([]byte, 0, len(signedMagic)+64+1+len(v))
	out = append(out, signedMagic...)
	out = append(out, hex.EncodeToString(s.recordMAC(key, v))...)
	out = append(out, '\n')
	return append(out, v...)
}

func (s *Store) recordMAC(key string, v []byte) []byte {
	h := hmac.New(sha256.New, s.signKey)
	h.Write([]byte(strconv.Itoa(len(key))))
	h.Write([]byte{':'})
	h.Write([]byte(key))
	h.Write(v)
	return h.Sum(nil)
}

// verify returns the value a signed record holds, or ErrForged.
func (s *Store) verify(key string, stored []byte) ([]byte, error) {
	rest, ok := bytes.CutPrefix(stored, []byte(signedMagic))
	if !ok {
		return nil, ErrForged
	}
	sum, v, ok := bytes.Cut(rest, []byte{'\n'})
	if !ok {
		return nil, ErrForged
	}
	got, err := hex.DecodeString(string(sum))
	if err != nil || !hmac.Equal(got, s.recordMAC(key, v)) {
		return nil, ErrForged
	}
	return v, nil
}

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
	stop, err := s.stopValue(false, 1, s.now())
	if err != nil {
		return err
	}
	check := s.sign(s.secretKey, secretRecord)
	absent := func(k string) clientv3.Cmp { return clientv3.Compare(clientv3.CreateRevision(k), "=", 0) }
	resp, err := s.cli.Txn(ctx).If(absent(s.secretKey), absent(s.stopKey)).
		Then(clientv3.OpPut(s.secretKey, string(check)), clientv3.OpPut(s.stopKey, string(stop))).Commit()
	if err != nil {
		return s.unreachable(err)
	}
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
	v, err := s.verify(s.secretKey, got.Kvs[0].Value)
	if err != nil || !bytes.Equal(v, secretRecord) {
		return true, &SecretMismatchError{Key: s.secretKey}
	}
	return true, nil
}

package shared

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// The records that carry the owner's authority (the Stop, agents, tasks,
// their steps and site answers) are signed with the cluster's secret when
// a member writes them and verified on every read, list and watch. A
// record that does not verify, such as one written to etcd by a process
// without the secret, is refused: the Stop counts as in force, the other
// kinds count as absent, and each is logged once per revision. The record
// of which member holds a conversation (Homes) is not signed: members
// compare it by value in etcd's transactions, and it names a member, not
// an authority.

// signedPrefix starts every signed value, before the MAC and a newline.
const signedPrefix = "buddi-signed-v1 "

// signed reports whether records of kind k are signed.
func signed(k Kind) bool { return k != Homes }

// sign returns v as stored at the key rel (relative to the prefix): the
// MAC of rel and v, then v.
func (s *Store) sign(rel string, v []byte) []byte {
	out := make([]byte, 0, len(signedPrefix)+2*sha256.Size+1+len(v))
	out = append(out, signedPrefix...)
	out = hex.AppendEncode(out, s.recordMAC(rel, v))
	return append(append(out, '\n'), v...)
}

func (s *Store) recordMAC(rel string, v []byte) []byte {
	h := hmac.New(sha256.New, s.secret.records)
	h.Write([]byte(rel))
	h.Write([]byte{'\n'})
	h.Write(v)
	return h.Sum(nil)
}

// verify returns the value a signed record at rel holds, or a
// *ForgedError when its MAC is not the cluster's for that key and value.
func (s *Store) verify(rel string, stored []byte, rev int64) ([]byte, error) {
	head, v, ok := bytes.Cut(stored, []byte{'\n'})
	if ok && bytes.HasPrefix(head, []byte(signedPrefix)) {
		sum := head[len(signedPrefix):]
		got := make([]byte, sha256.Size)
		if hex.DecodedLen(len(sum)) == sha256.Size {
			if _, err := hex.Decode(got, sum); err == nil && hmac.Equal(got, s.recordMAC(rel, v)) {
				return v, nil
			}
		}
	}
	err := &ForgedError{Key: s.prefix + "/" + rel, Rev: rev}
	s.refused(err)
	return nil, err
}

// ForgedError refuses a record that is not signed with the cluster's
// secret for its key.
type ForgedError struct {
	Key string
	Rev int64
}

func (e *ForgedError) Error() string {
	return fmt.Sprintf("the record at %s in etcd (revision %d) is not signed with this cluster's secret, so it is refused; was it written by something other than a member? Write it again through a member", e.Key, e.Rev)
}

// refused logs a forged record, once per key and revision.
func (s *Store) refused(e *ForgedError) {
	s.mu.Lock()
	seen := s.forged[e.Key] == e.Rev
	s.forged[e.Key] = e.Rev
	s.mu.Unlock()
	if !seen {
		s.log.Warn("refused a record in etcd that is not signed with the cluster's secret", "key", e.Key, "rev", e.Rev)
	}
}

// secretCheck is what <prefix>/secret holds signed: members with another
// secret cannot sign it, and refuse to join.
const secretCheck = "buddi cluster secret"

// CheckSecret makes sure this member's secret is the one the cluster's
// members use: the first member writes a record signed with it, the
// others verify that record. A member with another secret (made by its
// own `buddi cluster init`) is refused with a sentence saying what to do.
func (s *Store) CheckSecret(ctx context.Context) error {
	v := s.sign("secret", []byte(secretCheck))
	key := s.secretKey()
	// The first member also writes the Stop flag (not stopped) unless it
	// is there: from then on a missing flag was deleted, and counts as a
	// Stop in force.
	resume, err := json.Marshal(stopValue{Version: stopVersion, At: time.Now().UTC()})
	if err != nil {
		return fmt.Errorf("shared: encoding the Stop flag: %w", err)
	}
	first := clientv3.OpTxn([]clientv3.Cmp{clientv3.Compare(clientv3.CreateRevision(s.stopKey), "=", 0)},
		[]clientv3.Op{clientv3.OpPut(s.stopKey, string(s.sign("stop", resume)))}, nil)
	resp, err := s.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(key), "=", 0)).
		Then(clientv3.OpPut(key, string(v)), first).Else(clientv3.OpGet(key)).Commit()
	if err != nil {
		return s.unreachable(err)
	}
	if resp.Succeeded {
		return nil
	}
	kvs := resp.Responses[0].GetResponseRange().Kvs
	if len(kvs) == 1 && bytes.Equal(kvs[0].Value, v) {
		return nil
	}
	return fmt.Errorf("this member's cluster secret is not the one the cluster's other members use (the record at %s does not verify with it); copy the cluster.secret file of a running member to this one rather than running `buddi cluster init` again", key)
}

func (s *Store) secretKey() string { return s.prefix + "/secret" }

// missingStop is the State of a Stop flag that is not in etcd: none was
// ever written when the cluster has no secret record yet (a new cluster),
// and a Stop in force, refused and logged, when it has one (the flag was
// deleted by something other than a member, which never deletes it).
func (s *Store) missingStop(initialized bool, rev int64) (State, error) {
	if !initialized {
		return State{}, nil
	}
	forged := &ForgedError{Key: s.stopKey, Rev: rev}
	s.refused(forged)
	return State{Stopped: true, Rev: rev}, &MalformedError{Key: s.stopKey, Err: errors.New("it was deleted, which no member does")}
}

package shared

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// MemberTTL is the lease, in seconds, a member's registration lives on
// without a keep-alive: a member that dies disappears from the list
// within it.
const MemberTTL = 5

// Member is one buddi host of a cluster as it registered itself.
type Member struct {
	// ID is stable for a host's data directory, so a restarted member
	// registers under the same key.
	ID string
	// Addr is where the other members and the owner reach it, host:port.
	Addr string
	// Capacity is how much browser work it holds and has room for.
	Capacity Capacity
	// Since is when this registration began.
	Since time.Time
}

// Capacity is a member's browser profiles and sessions: how many it may
// open and how many are in use.
type Capacity struct {
	Profiles      int `json:"profiles"`
	ProfilesInUse int `json:"profilesInUse"`
	Sessions      int `json:"sessions"`
	SessionsInUse int `json:"sessionsInUse"`
}

// memberValue is the JSON stored at <prefix>/members/<id>.
type memberValue struct {
	Version  int       `json:"v"`
	Addr     string    `json:"addr"`
	Capacity Capacity  `json:"capacity"`
	Since    time.Time `json:"since"`
}

const memberVersion = 1 // stored signed (sign.go)

// memberID is what a member id may be: it is a key segment in etcd.
var memberID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// ValidMemberID reports whether id may name a member: 1 to 64 letters,
// digits, '-' or '_'.
func ValidMemberID(id string) bool { return memberID.MatchString(id) }

func (m Member) validate() error {
	if !ValidMemberID(m.ID) {
		return fmt.Errorf("shared: the member id %q is not 1 to 64 letters, digits, '-' or '_'; remove <data>/member-id to have a new one made", m.ID)
	}
	if m.Addr == "" {
		return fmt.Errorf("shared: member %s has no address; give the host:port other members reach it at", m.ID)
	}
	return nil
}

func (s *Store) memberKey(id string) string { return s.membersKey + id }

func (m Member) encode() ([]byte, error) {
	b, err := json.Marshal(memberValue{Version: memberVersion, Addr: m.Addr, Capacity: m.Capacity, Since: m.Since.UTC()})
	if err != nil {
		return nil, fmt.Errorf("shared: encoding member %s: %w", m.ID, err)
	}
	return b, nil
}

// decodeMember reads one member's key; ok is false for a value this
// buddi cannot read (another version, or garbage), and for one refused
// (not signed with the cluster's secret, or older than one seen: a member
// entry written by something that reached etcd, logged), which is left
// out.
func (s *Store) decodeMember(kv *mvccpb.KeyValue) (Member, bool) {
	raw, live, err := s.open(string(kv.Key), kv.Value, kv.ModRevision)
	if err != nil || !live {
		return Member{}, false
	}
	var v memberValue
	if json.Unmarshal(raw, &v) != nil || v.Version != memberVersion || v.Addr == "" {
		return Member{}, false
	}
	id := strings.TrimPrefix(string(kv.Key), s.membersKey)
	return Member{ID: id, Addr: v.Addr, Capacity: v.Capacity, Since: v.Since}, true
}

// Members lists the registered members by id, read linearizably. A value
// it cannot read is left out: a member this buddi does not understand is
// not one it could send work to.
func (s *Store) Members(ctx context.Context) ([]Member, error) {
	ms, _, err := s.members(ctx)
	return ms, err
}

func (s *Store) members(ctx context.Context) ([]Member, int64, error) {
	if s.isClosed() {
		return nil, 0, ErrClosed
	}
	resp, err := s.cli.Get(ctx, s.membersKey, clientv3.WithPrefix())
	if err != nil {
		return nil, 0, s.unreachable(err)
	}
	out := make([]Member, 0, len(resp.Kvs))
	for _, kv := range resp.Kvs {
		if m, ok := s.decodeMember(kv); ok {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b Member) int { return strings.Compare(a.ID, b.ID) })
	return out, resp.Header.Revision, nil
}

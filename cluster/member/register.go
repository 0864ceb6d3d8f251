package member

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// IDFile is the file in the data directory that holds this host's
// member id, made on its first start in a cluster, so that a restart
// registers the same id.
const IDFile = "member-id"

// capacityPause is the least time between two reads of this member's
// capacity for its registration.
const capacityPause = 250 * time.Millisecond

// healthWait bounds the read of this member's capacity.
const healthWait = 5 * time.Second

// memberID reads the data directory's member id, making one the first time.
func memberID(dir string) (string, error) {
	path := filepath.Join(dir, IDFile)
	b, err := os.ReadFile(path)
	if err == nil {
		id := strings.TrimSpace(string(b))
		if !shared.ValidMemberID(id) {
			return "", fmt.Errorf("%s does not hold a member id (1 to 64 letters, digits, '-' or '_'); remove it and buddi makes a new one", path)
		}
		return id, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read the member id in %s: %w", path, err)
	}
	raw := make([]byte, 8)
	_, _ = rand.Read(raw)
	id := hex.EncodeToString(raw)
	if err := os.WriteFile(path, []byte(id+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("write the member id to %s: %w", path, err)
	}
	return id, nil
}

// joinCluster registers this member in etcd, keeps its capacity there
// current and feeds the controller the member list. What it starts ends
// with stop, which waits for it; the registration itself ends with the
// store's Close, which deletes the member's key.
func (mem *Self) joinCluster(ctx context.Context) (stop func(), err error) {
	id := mem.memberID
	addr := mem.cfg.ClusterAdvertise
	if addr == "" {
		addr = mem.addr
	}
	rctx, cancel := context.WithTimeout(ctx, clusterOpenWait)
	defer cancel()
	reg, err := mem.shared.Register(rctx, shared.Member{ID: id, Addr: addr, Capacity: mem.capacity(ctx)})
	if err != nil {
		return nil, fmt.Errorf("--cluster: register this member as %s: %w", id, err)
	}
	err = mem.shared.WatchMembers(ctx, func(ms []shared.Member) {
		mem.parts.Root.Send(mem.parts.Controller, &messages.ClusterMembers{Self: id, Members: clusterMembers(ms)})
	})
	if err != nil {
		return nil, fmt.Errorf("watch the cluster's members: %w", err)
	}
	var wg sync.WaitGroup
	sub := mem.parts.Gateway.Subscribe(events.Filter{Kinds: messages.KindSession | messages.KindStop})
	wg.Go(func() {
		defer sub.Close()
		for {
			if _, err := sub.Next(ctx); err != nil {
				return
			}
			sub.Drain()
			reg.Update(mem.capacity(ctx))
			// A session's steps come faster than its capacity changes: the
			// events meanwhile coalesce, and the controller is asked again
			// at most this often.
			select {
			case <-ctx.Done():
				return
			case <-time.After(capacityPause):
			}
		}
	})
	return wg.Wait, nil
}

// Membership names who keeps the member list, or "" on a single host.
func (mem *Self) Membership() string {
	if mem == nil {
		return ""
	}
	if mem.cfg.ClusterMembership == "" {
		return config.Memberships[0]
	}
	return mem.cfg.ClusterMembership
}

// capacity is this member's profiles and sessions as the controller counts
// them; zero when it does not answer in time.
func (mem *Self) capacity(ctx context.Context) shared.Capacity {
	c, cancel := context.WithTimeout(ctx, healthWait)
	defer cancel()
	h, e := mem.parts.Gateway.Health(c)
	if e != nil {
		return shared.Capacity{}
	}
	return shared.Capacity{
		Profiles: h.Capacity.Profiles.Total, ProfilesInUse: h.Capacity.Profiles.InUse,
		Sessions: h.Capacity.Sessions.Total, SessionsInUse: h.Capacity.Sessions.InUse,
	}
}

func clusterMembers(ms []shared.Member) []messages.ClusterMember {
	out := make([]messages.ClusterMember, len(ms))
	for i, m := range ms {
		out[i] = messages.ClusterMember{ID: m.ID, Address: m.Addr, Since: m.Since, Capacity: messages.Capacity{
			Profiles: messages.NewSlots(m.Capacity.Profiles, m.Capacity.ProfilesInUse),
			Sessions: messages.NewSlots(m.Capacity.Sessions, m.Capacity.SessionsInUse),
		}}
	}
	return out
}

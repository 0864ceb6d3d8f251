package shared

import (
	"context"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// FollowGenerations learns, from a goroutine of its own, the generation
// of every record of the kinds given as other members write them, without
// reading them for any other use: so that a member that later reads one
// (the steps of a conversation it adopts after its member was lost)
// refuses an older one written back meanwhile, and logs it. It ends when
// ctx is cancelled or the Store is closed; while etcd is away it waits and
// follows again from where etcd then is.
func (s *Store) FollowGenerations(ctx context.Context, kinds ...Kind) error {
	return s.startWatch(ctx, func(context.Context) {}, func(ctx context.Context) {
		for ctx.Err() == nil {
			s.followOnce(ctx, kinds)
			select {
			case <-ctx.Done():
				return
			case <-time.After(probeEvery):
			}
		}
	})
}

// followOnce follows kinds from etcd's current revision until the watch
// fails or ctx ends: one watch of the whole prefix, whose events of other
// kinds are passed over.
func (s *Store) followOnce(ctx context.Context, kinds []Kind) {
	rctx, cancel := context.WithTimeout(ctx, probeTimeout)
	now, err := s.cli.Get(rctx, s.stopKey, clientv3.WithCountOnly())
	cancel()
	if err != nil {
		return
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	wch := s.cli.Watch(clientv3.WithRequireLeader(fctx), s.prefix+"/", clientv3.WithPrefix(), clientv3.WithRev(now.Header.Revision+1))
	for resp := range wch {
		if resp.Err() != nil {
			return
		}
		for _, ev := range resp.Events {
			if ev.Type == mvccpb.PUT && s.ofKinds(string(ev.Kv.Key), kinds) {
				_, _, _ = s.open(string(ev.Kv.Key), ev.Kv.Value, ev.Kv.ModRevision)
			}
		}
	}
}

// ofKinds reports whether key is a record of one of kinds.
func (s *Store) ofKinds(key string, kinds []Kind) bool {
	for _, k := range kinds {
		if strings.HasPrefix(key, s.kindKey(k)) {
			return true
		}
	}
	return false
}

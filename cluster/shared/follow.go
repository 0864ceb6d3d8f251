package shared

import (
	"context"
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

// followOnce follows kinds from etcd's current revision until a watch
// fails or ctx ends.
func (s *Store) followOnce(ctx context.Context, kinds []Kind) {
	rctx, cancel := context.WithTimeout(ctx, probeTimeout)
	now, err := s.cli.Get(rctx, s.stopKey, clientv3.WithCountOnly())
	cancel()
	if err != nil {
		return
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	events := make(chan *clientv3.Event)
	done := make(chan struct{}, len(kinds))
	for _, k := range kinds {
		go func() {
			defer func() { done <- struct{}{} }()
			wch := s.cli.Watch(clientv3.WithRequireLeader(fctx), s.kindKey(k), clientv3.WithPrefix(), clientv3.WithRev(now.Header.Revision+1))
			for resp := range wch {
				if resp.Err() != nil {
					return
				}
				for _, ev := range resp.Events {
					select {
					case events <- ev:
					case <-fctx.Done():
						return
					}
				}
			}
		}()
	}
	defer func() {
		stop()
		for range kinds {
			<-done
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-done:
			return // one watch failed: follow all again
		case ev := <-events:
			if ev.Type == mvccpb.PUT {
				_, _, _ = s.open(string(ev.Kv.Key), ev.Kv.Value, ev.Kv.ModRevision)
			}
		}
	}
}

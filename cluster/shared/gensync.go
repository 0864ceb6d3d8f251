package shared

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Generations learned from the members that run: etcd alone cannot tell a
// member that has seen nothing (a new data directory, or one that was down
// while a record changed) the newest record at a key from an older one,
// validly signed, written back, because whoever writes to etcd can write
// back every key at once. The running members can: each remembers the
// newest generation it verified at every key it read. So a member asks
// them before it reads anything (LearnGenerations): it writes a signed
// request with a fresh random nonce under <prefix>/gensync/<nonce>, every
// running member answers with the generations it knows under
// <prefix>/gensync/<nonce>/<its id> (ServeGenerations), each answer signed
// over its key, so over the nonce: an answer cannot be forged without the
// secret, nor one of an earlier request written back. The asking member
// takes the highest generation any answer gives for each key and refuses
// anything older from then on. A process that reaches etcd can delete the
// requests or the answers, or the member list: then no one answers, and
// the caller fails closed (the member says so and does not start, unless
// it remembers the generations itself or founded the cluster).

// syncTTL is how long, in seconds, a request or an answer stays in etcd
// (its lease), should the member that wrote it not delete it.
const syncTTL = 30

// maxShared bounds the generations one answer carries; the owner's
// records (kept in the file) come first, then a conversation's.
const maxShared = 16384

// syncAsk is the body of a request for generations.
type syncAsk struct {
	From string    `json:"from"`
	At   time.Time `json:"at"`
}

// syncAnswer is the body of an answer: the generations the answering
// member knows, by key under the prefix (such as /agents/ada).
type syncAnswer struct {
	Gens map[string]uint64 `json:"gens"`
}

func (s *Store) syncKey() string { return s.prefix + "/gensync/" }

// Learned is what LearnGenerations heard.
type Learned struct {
	// Asked are the members registered, this one left out, when it last
	// looked; Answered are those (or others) that answered.
	Asked, Answered []string
	// Keys is how many keys' generations rose here from the answers.
	Keys int
}

// LearnGenerations asks the members registered in etcd (self left out)
// for the generations they have verified, and takes the highest given for
// each key: a record older than that is refused from then on. It returns
// once every member registered has answered, or after wait; when no member
// is registered, at once if alone is true (the caller has nothing to wait
// for), or after wait otherwise (members starting with it may register
// meanwhile). It fails only when etcd does not answer.
func (s *Store) LearnGenerations(ctx context.Context, self string, wait time.Duration, alone bool) (Learned, error) {
	var got Learned
	if s.isClosed() {
		return got, ErrClosed
	}
	raw := make([]byte, 16)
	_, _ = rand.Read(raw)
	nonce := hex.EncodeToString(raw)
	req := s.syncKey() + nonce
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	lease, err := s.cli.Grant(ctx, syncTTL)
	if err != nil {
		return got, s.unreachable(err)
	}
	body, _ := json.Marshal(syncAsk{From: self, At: s.now()})
	put, err := s.cli.Put(ctx, req, string(s.sign(req, 1, false, body)), clientv3.WithLease(lease.ID))
	if err != nil {
		return got, s.unreachable(err)
	}
	defer func() {
		c, cancel := context.WithTimeout(context.Background(), probeTimeout)
		defer cancel()
		_, _ = s.cli.Delete(c, req, clientv3.WithPrefix())
		_, _ = s.cli.Revoke(c, lease.ID)
	}()
	// every answer is written after the request: the watch starts there
	answers := s.cli.Watch(clientv3.WithRequireLeader(ctx), req+"/", clientv3.WithPrefix(), clientv3.WithRev(put.Header.Revision+1))
	best := map[string]uint64{}
	answered := map[string]bool{}
	look := time.NewTicker(250 * time.Millisecond)
	defer look.Stop()
	for s.stillWaiting(ctx, self, &got, answered, alone) {
		select {
		case <-ctx.Done():
		case <-look.C:
		case resp, ok := <-answers:
			if !ok || resp.Err() != nil {
				answers = nil // the watch failed: what came is what there is
				continue
			}
			s.takeAnswers(req, resp.Events, answered, best)
		}
	}
	for id := range answered {
		got.Answered = append(got.Answered, id)
	}
	slices.Sort(got.Answered)
	got.Keys = s.gens.seed(best)
	if got.Keys > 0 {
		s.gens.save()
	}
	if len(got.Answered) == 0 && errors.Is(ctx.Err(), context.Canceled) {
		return got, s.unreachable(ctx.Err())
	}
	return got, nil
}

// stillWaiting lists the members registered (self left out) into
// got.Asked and reports whether LearnGenerations waits on: while ctx
// lasts, until each of them answered, and, with none registered, until
// one answers unless alone.
func (s *Store) stillWaiting(ctx context.Context, self string, got *Learned, answered map[string]bool, alone bool) bool {
	if ctx.Err() != nil {
		return false
	}
	ms, _, err := s.members(ctx)
	if err != nil {
		return true
	}
	got.Asked = got.Asked[:0]
	for _, m := range ms {
		if m.ID != self {
			got.Asked = append(got.Asked, m.ID)
		}
	}
	if slices.ContainsFunc(got.Asked, func(id string) bool { return !answered[id] }) {
		return true
	}
	return len(answered) == 0 && !alone
}

// takeAnswers adds the verified answers among evs (under req) to best,
// and notes who answered; one that does not verify is refused and logged.
func (s *Store) takeAnswers(req string, evs []*clientv3.Event, answered map[string]bool, best map[string]uint64) {
	for _, ev := range evs {
		if ev.Type != mvccpb.PUT {
			continue
		}
		key := string(ev.Kv.Key)
		id := strings.TrimPrefix(key, req+"/")
		if !ValidMemberID(id) {
			continue
		}
		rec, err := s.verify(key, ev.Kv.Value)
		var a syncAnswer
		if err != nil || rec.gone || json.Unmarshal(rec.v, &a) != nil {
			s.refuse(key, ev.Kv.ModRevision, forgedWhy)
			continue
		}
		answered[id] = true
		for k, gen := range a.Gens {
			if strings.HasPrefix(k, "/") && !strings.HasPrefix(k, "/gensync/") {
				best[s.prefix+k] = max(best[s.prefix+k], gen)
			}
		}
	}
}

// ServeGenerations answers, from a goroutine of its own, every request
// another member makes with LearnGenerations, as the member self: with
// the generations this Store has verified. Call it once the member has
// read what it serves from. It ends when ctx is cancelled or the Store is
// closed; while etcd is away it waits and answers again from where etcd
// then is (a request made meanwhile is not answered; its member waits).
func (s *Store) ServeGenerations(ctx context.Context, self string) error {
	return s.startWatch(ctx, func(context.Context) {}, func(ctx context.Context) {
		for ctx.Err() == nil {
			s.serveOnce(ctx, self)
			select {
			case <-ctx.Done():
				return
			case <-time.After(probeEvery):
			}
		}
	})
}

// serveOnce answers the requests etcd holds, then each one made after,
// until the watch fails or ctx ends: a member that registered before it
// served (or while etcd was away) still answers the members waiting on it.
func (s *Store) serveOnce(ctx context.Context, self string) {
	rctx, cancel := context.WithTimeout(ctx, probeTimeout)
	now, err := s.cli.Get(rctx, s.syncKey(), clientv3.WithPrefix())
	cancel()
	if err != nil {
		return
	}
	for _, kv := range now.Kvs {
		s.serveRequest(ctx, kv, self)
	}
	fctx, stop := context.WithCancel(ctx)
	defer stop()
	wch := s.cli.Watch(clientv3.WithRequireLeader(fctx), s.syncKey(), clientv3.WithPrefix(), clientv3.WithRev(now.Header.Revision+1))
	for resp := range wch {
		if resp.Err() != nil {
			return
		}
		for _, ev := range resp.Events {
			if ev.Type == mvccpb.PUT {
				s.serveRequest(ctx, ev.Kv, self)
			}
		}
	}
}

// serveRequest answers the request kv holds, unless it is an answer, its
// own or does not verify (which is refused and logged).
func (s *Store) serveRequest(ctx context.Context, kv *mvccpb.KeyValue, self string) {
	key := string(kv.Key)
	if strings.Contains(strings.TrimPrefix(key, s.syncKey()), "/") {
		return // an answer
	}
	rec, err := s.verify(key, kv.Value)
	var ask syncAsk
	if err != nil || rec.gone || json.Unmarshal(rec.v, &ask) != nil {
		s.refuse(key, kv.ModRevision, forgedWhy)
		return
	}
	if ask.From != self {
		s.answer(ctx, key, self)
	}
}

// answer writes this Store's generations under the request at req.
func (s *Store) answer(ctx context.Context, req, self string) {
	body, err := json.Marshal(syncAnswer{Gens: s.gens.shared(s.prefix, maxShared)})
	if err != nil {
		return
	}
	c, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	lease, err := s.cli.Grant(c, syncTTL)
	if err != nil {
		return
	}
	key := req + "/" + self
	if _, err := s.cli.Put(c, key, string(s.sign(key, 1, false, body)), clientv3.WithLease(lease.ID)); err != nil {
		s.log.Warn("shared: another member's request for the generations this member knows was not answered", "err", err)
	}
}

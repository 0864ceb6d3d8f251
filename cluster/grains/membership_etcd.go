package grains

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/cluster"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// MemberLease is how long a member's entry in the etcd member list lives
// without a keep-alive: the time the others take to see a member that died
// leave. protoactor's own etcd provider fixed it at 3 s, and on a loaded
// 2-core machine a member's keep-alive was late by that much: the others
// saw it leave, and protoactor's member list blocks a member that left for
// as long as it runs, so the member was cut off until restarted. The
// client renews every third of it.
const MemberLease = 8 * time.Second

// etcdMembers keeps protoactor's member list in etcd: each member's entry
// under <prefix>/<cluster name>/<member id>, in the JSON protoactor's etcd
// provider wrote (so a cluster can be upgraded member by member), on a
// lease of MemberLease kept alive. It publishes the list to protoactor's
// MemberList from one goroutine, and always with this member in it: an
// entry of its own that lapsed is written again on a new lease, and logged,
// rather than published as this member leaving. Unlike protoactor's
// provider, every etcd call has a deadline and Shutdown closes the client.
type etcdMembers struct {
	cli     *clientv3.Client
	prefix  string
	timeout time.Duration
	lease   time.Duration
	onLapse func() // Config.OnLapse; nil: only the log says it

	c      *cluster.Cluster
	log    *slog.Logger
	dir    string // <prefix>/<name>/
	key    string // this member's entry
	self   memberEntry
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once

	members map[string]*cluster.Member // by key; the watching goroutine's
}

// memberEntry is a member's entry as protoactor's etcd provider wrote it.
type memberEntry struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Host    string   `json:"host"`
	Address string   `json:"address"`
	Port    int      `json:"port"`
	Kinds   []string `json:"kinds"`
	Alive   bool     `json:"alive"`
}

func (e memberEntry) member() *cluster.Member {
	host := e.Host
	if host == "" {
		host = e.Address
	}
	kinds := e.Kinds
	if kinds == nil {
		kinds = []string{}
	}
	return &cluster.Member{Id: e.ID, Host: host, Port: int32(e.Port), Kinds: kinds} //nolint:gosec // a port fits
}

func newEtcdMembers(cli *clientv3.Client, prefix string, timeout, lease time.Duration) *etcdMembers {
	return &etcdMembers{cli: cli, prefix: prefix, timeout: timeout, lease: lease, members: map[string]*cluster.Member{}}
}

// StartMember reads the member list, publishes it with this member in it,
// registers this member and follows the list.
func (p *etcdMembers) StartMember(c *cluster.Cluster) error {
	rev, err := p.begin(c)
	if err != nil {
		return err
	}
	lease, err := p.register()
	if err != nil {
		return err
	}
	p.wg.Add(2)
	go p.keepAlive(lease)
	go p.follow(rev)
	return nil
}

// StartClient reads and follows the member list without registering.
func (p *etcdMembers) StartClient(c *cluster.Cluster) error {
	rev, err := p.begin(c)
	if err != nil {
		return err
	}
	p.wg.Add(1)
	go p.follow(rev)
	return nil
}

// begin reads the member list and publishes it, returning the revision
// read at.
func (p *etcdMembers) begin(c *cluster.Cluster) (int64, error) {
	if err := p.init(c); err != nil {
		return 0, err
	}
	rev, err := p.read()
	if err != nil {
		return 0, err
	}
	p.publish()
	return rev, nil
}

func (p *etcdMembers) init(c *cluster.Cluster) error {
	host, port, err := net.SplitHostPort(c.ActorSystem.Address())
	if err != nil {
		return fmt.Errorf("grains: this member's address %q is not host:port", c.ActorSystem.Address())
	}
	portN, err := strconv.Atoi(port)
	if err != nil {
		return fmt.Errorf("grains: this member's port %q is not a number", port)
	}
	p.c, p.log = c, c.Logger()
	id := c.Config.Name + "@" + c.ActorSystem.ID
	p.self = memberEntry{ID: id, Name: id, Host: host, Address: host, Port: portN, Kinds: c.GetClusterKinds(), Alive: true}
	p.dir = p.prefix + "/" + c.Config.Name + "/"
	p.key = p.dir + c.ActorSystem.ID
	p.ctx, p.cancel = context.WithCancel(context.Background())
	return nil
}

// read replaces the list with etcd's, returning the revision it read at.
func (p *etcdMembers) read() (int64, error) {
	ctx, cancel := context.WithTimeout(p.ctx, p.timeout)
	defer cancel()
	resp, err := p.cli.Get(ctx, p.dir, clientv3.WithPrefix())
	if err != nil {
		return 0, fmt.Errorf("grains: the member list in etcd could not be read (%w); check that etcd answers", err)
	}
	clear(p.members)
	for _, kv := range resp.Kvs {
		p.put(string(kv.Key), kv.Value)
	}
	return resp.Header.Revision, nil
}

// put takes one entry into the list; an entry that is not protoactor's
// JSON is logged and left out.
func (p *etcdMembers) put(key string, value []byte) {
	if key == p.key {
		return
	}
	var e memberEntry
	if err := json.Unmarshal(value, &e); err != nil || e.ID == "" {
		p.log.Warn("grains: an entry in etcd's member list is not a member; it is left out", slog.String("key", key))
		return
	}
	p.members[key] = e.member()
}

// publish hands the list, this member always in it, to protoactor.
func (p *etcdMembers) publish() {
	p.members[p.key] = p.self.member()
	list := make([]*cluster.Member, 0, len(p.members))
	for _, m := range p.members {
		list = append(list, m)
	}
	slices.SortFunc(list, func(a, b *cluster.Member) int { return strings.Compare(a.Id, b.Id) })
	p.c.MemberList.UpdateClusterTopology(list)
}

// register writes this member's entry on a new lease.
func (p *etcdMembers) register() (clientv3.LeaseID, error) {
	ctx, cancel := context.WithTimeout(p.ctx, p.timeout)
	defer cancel()
	g, err := p.cli.Grant(ctx, int64(p.lease/time.Second))
	if err != nil {
		return 0, fmt.Errorf("grains: etcd granted no lease for this member (%w); check that etcd answers", err)
	}
	value, err := json.Marshal(p.self)
	if err != nil {
		return 0, err
	}
	if _, err := p.cli.Put(ctx, p.key, string(value), clientv3.WithLease(g.ID)); err != nil {
		return 0, fmt.Errorf("grains: this member could not write its entry in etcd (%w); check that etcd answers", err)
	}
	return g.ID, nil
}

// keepAlive keeps this member's lease; when it lapses (no answer from etcd
// for the whole lease), the entry is written again on a new lease, once
// etcd answers.
func (p *etcdMembers) keepAlive(lease clientv3.LeaseID) {
	defer p.wg.Done()
	for {
		ch, err := p.cli.KeepAlive(p.ctx, lease)
		if err == nil {
			for range ch { //nolint:revive // drained: the client renews
			}
		}
		if p.ctx.Err() != nil {
			return
		}
		p.log.Error("grains: this member's entry in etcd's member list lapsed (etcd heard no keep-alive for " + p.lease.String() +
			"); writing it again, but members that saw it go do not route to it until it restarts: restart it if its sessions answer cluster_unreachable")
		if p.onLapse != nil {
			p.onLapse()
		}
		for {
			if lease, err = p.register(); err == nil {
				break
			}
			select {
			case <-p.ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}
}

// follow publishes every change to the list after revision rev; a watch
// that etcd ends (compaction, a lost connection) reads the list again.
func (p *etcdMembers) follow(rev int64) {
	defer p.wg.Done()
	for p.ctx.Err() == nil {
		for resp := range p.cli.Watch(clientv3.WithRequireLeader(p.ctx), p.dir, clientv3.WithPrefix(), clientv3.WithRev(rev+1)) {
			if resp.Err() != nil {
				break
			}
			for _, ev := range resp.Events {
				if ev.Type == clientv3.EventTypeDelete {
					delete(p.members, string(ev.Kv.Key))
				} else {
					p.put(string(ev.Kv.Key), ev.Kv.Value)
				}
			}
			rev = resp.Header.Revision
			p.publish()
		}
		p.again(&rev)
	}
}

// again reads the list afresh after a watch ended, retrying each second
// until etcd answers or the member shuts down.
func (p *etcdMembers) again(rev *int64) {
	for p.ctx.Err() == nil {
		r, err := p.read()
		if err == nil {
			*rev = r
			p.publish()
			return
		}
		select {
		case <-p.ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// Shutdown deletes this member's entry (so the others see it leave at
// once), stops following and closes the etcd client. It is safe to call
// more than once, and before a start.
func (p *etcdMembers) Shutdown(bool) error {
	var err error
	p.once.Do(func() {
		if p.cancel != nil {
			p.cancel()
			ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
			_, err = p.cli.Delete(ctx, p.key)
			cancel()
			p.wg.Wait()
		}
		err = errors.Join(err, p.cli.Close())
	})
	return err
}

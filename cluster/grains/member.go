package grains

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/eventstream"
	"github.com/asynkron/protoactor-go/remote"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// Member is this process's place in the cluster: an actor system with a
// remote server, joined to the cluster, hosting session grains.
type Member struct {
	cfg      Config
	system   *actor.ActorSystem
	cluster  *cluster.Cluster
	provider cluster.ClusterProvider
	places   *placement
	cancel   context.CancelFunc // the provider's etcd client context

	topology *eventstream.Subscription
	losses   losses

	mu      sync.RWMutex
	closed  bool
	members []string // addresses, from the last ClusterTopology
	once    sync.Once
}

// Start joins the cluster and returns once this member has registered in
// etcd and seen the member list. An error stops what the start had
// started, the member list's etcd client included.
func Start(cfg Config) (*Member, error) {
	cfg, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	provider, err := cfg.membership(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	logger := cfg.Logger
	system := actor.NewActorSystemWithConfig(actor.Configure(
		actor.WithLoggerFactory(func(*actor.ActorSystem) *slog.Logger { return logger })))
	if cfg.Made != nil {
		cfg.Made(system)
	}
	var ropts []remote.ConfigOption
	if cfg.AdvertisedHost != "" {
		ropts = append(ropts, remote.WithAdvertisedHost(cfg.AdvertisedHost))
	}
	if cfg.MemberTLS != nil {
		creds := credentials.NewTLS(cfg.MemberTLS)
		ropts = append(ropts, remote.WithServerOptions(grpc.Creds(creds)),
			remote.WithDialOptions(grpc.WithTransportCredentials(creds)))
	}
	places := newPlacement(cfg.Capacity)
	places.log = cfg.Logger
	places.onRoutes = cfg.OnRoutes
	if key := cfg.Types.sealKey(); key != nil {
		// placement messages are sealed with the session messages' key
		if err := places.types.Seal(key, cfg.Logger); err != nil {
			cancel()
			return nil, err
		}
	}
	ccfg := cluster.Configure(cfg.Name, provider, places, remote.Configure(cfg.Host, cfg.Port, ropts...),
		cluster.WithKinds(cluster.NewKind(Kind, props(cfg.Produce, cfg.Types))),
		cluster.WithRequestTimeout(cfg.RequestTimeout))
	m := &Member{cfg: cfg, system: system, provider: provider, places: places, cancel: cancel}
	places.losses = &m.losses
	m.cluster = cluster.New(system, ccfg)
	m.topology = system.EventStream.Subscribe(m.follow)
	if err := m.startLocal(); err != nil {
		m.abort()
		return nil, err
	}
	if err := m.start(); err != nil {
		m.abort()
		return nil, err
	}
	return m, nil
}

// abort undoes a start that failed part way: whatever protoactor started
// is stopped, and what it never made is skipped.
func (m *Member) abort() {
	m.system.EventStream.Unsubscribe(m.topology)
	try(m.places.Shutdown)
	try(func() { _ = m.provider.Shutdown(false) })
	try(m.cluster.Gossip.Shutdown)
	try(func() { m.cluster.Remote.Shutdown(false) })
	m.system.Shutdown()
	m.cancel()
}

// try runs f, which may panic on a part protoactor never made.
func try(f func()) {
	defer func() { _ = recover() }()
	f()
}

// start runs protoactor's StartMember, which panics where it fails.
func (m *Member) start() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("grains: this member could not join the cluster (%v); check that its cluster port is free and its host is one of this machine's addresses", r)
		}
	}()
	m.cluster.StartMember()
	return nil
}

// Address is the host:port other members reach this one at; grains
// activated here answer with it as their PID's address.
func (m *Member) Address() string { return m.system.Address() }

// Shutdown leaves the cluster. Graceful waits for protoactor's hand-over
// pause (two seconds) and stops gossip; either way this member's key is
// deleted from etcd at once and its etcd client stops, so the others see
// it leave without waiting for its lease. It is safe to call twice.
func (m *Member) Shutdown(graceful bool) {
	m.once.Do(func() {
		m.mu.Lock()
		m.closed = true
		m.mu.Unlock()
		if !graceful {
			// protoactor's own hard shutdown leaves the provider registered
			// and its lease kept alive; deregister first, so the others
			// stop routing here before the remote server closes.
			_ = m.provider.Shutdown(false)
			// nor does it stop the identity lookup: stop this member's
			// activations while the remote can still tell their
			// authorities.
			m.places.Shutdown()
		}
		m.cluster.Shutdown(graceful)
		m.system.EventStream.Unsubscribe(m.topology)
		m.cancel()
	})
}

func (m *Member) isClosed() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.closed
}

// Authority is the address of the member that places identity (the
// first of its rendezvous order over the members), or "" before this
// member knows any.
func (m *Member) Authority(identity string) string { return m.places.authority(identity) }

// Members lists the addresses of the members this one currently routes
// and sends to, itself included: those of the last topology its member
// list published that proved they hold the cluster's key (admission.go).
func (m *Member) Members() []string { return m.places.admitted() }

// listed is the last topology's addresses, admitted or not.
func (m *Member) listed() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return slices.Clone(m.members)
}

// follow keeps the member addresses of every topology the cluster
// publishes. protoactor's MemberList hands out its sets without a lock, so
// they are copied here, in the publishing goroutine, under m.mu.
func (m *Member) follow(ev any) {
	m.losses.follow(ev)
	t, ok := ev.(*cluster.ClusterTopology)
	if !ok {
		return
	}
	addrs := make([]string, 0, len(t.Members))
	for _, mm := range t.Members {
		addrs = append(addrs, mm.Address())
	}
	m.mu.Lock()
	m.members = addrs
	m.mu.Unlock()
}

package member

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/gateway"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/actors/stop"
	"github.com/buddi-dev/buddi/cluster/grains"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// GenerationsFile is the file in the data directory where a member keeps
// the newest generation it has seen of the owner's records in etcd (the
// Stop flag, agents, site answers), so that after a restart it still
// refuses an older one written back.
const GenerationsFile = "cluster-generations.json"

// clusterOpenWait bounds reaching etcd when a member starts.
const clusterOpenWait = 10 * time.Second

// Self is this buddi as a member of a cluster (--cluster): what it uses of
// the rest, handed over once (Parts), and what it starts and closes itself.
type Self struct {
	cfg   config.Config
	addr  string
	log   *slog.Logger
	parts Parts // this buddi's own parts, handed over by Join

	shared   *shared.Store
	tls      *shared.TLS // the cluster's TLS (BUDDI_CLUSTER_CA…); nil in the clear
	secret   shared.Secret
	memberID string
	grains   *grains.Member
	relay    *relay
	hands    remoteHands
	unwatch  context.CancelFunc // ends the watches and what they started
	claims   atomic.Int64       // conversations this member tried to claim in etcd
}

// Parts are this buddi's own parts the member calls, which the daemon
// hands over once its controller runs: its store (read only), routing
// table, bus and actors.
type Parts struct {
	Store      *ledger.Store
	Routes     *routes.Table
	Bus        *events.Bus
	Gateway    *gateway.Gateway
	Root       *actor.RootContext
	Controller *actor.PID
	Stop       *actor.PID // the owner's Stop, which the watch of etcd's flag feeds
	Stops      *stop.Board
}

// etcdDown is the refusal of new work while this member knows etcd is
// away (or has not heard from it yet), or nil: the sentence its controller
// gives, at once.
func (mem *Self) etcdDown() *messages.Error {
	if why := mem.parts.Stops.Load().Unreachable(); why != "" {
		return messages.CodeClusterDown.Err(why)
	}
	return nil
}

// Open connects a member (--cluster) to the cluster's etcd; nil without
// --cluster. A member that cannot reach etcd does not start: it
// could not know whether the owner stopped browser access.
func Open(cfg config.Config, addr string, log *slog.Logger) (*Self, error) {
	if !cfg.Cluster {
		return nil, nil
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	mem := &Self{cfg: cfg, addr: addr, log: log}
	// The secret is read before etcd is touched: without it this member
	// could verify nothing etcd holds.
	secret, err := shared.ReadSecret(cfg.ClusterSecretPath())
	if err != nil {
		return nil, fmt.Errorf("--cluster: %w", err)
	}
	mem.secret = secret
	files := shared.TLSFiles{CA: cfg.ClusterCA, Cert: cfg.ClusterCert, Key: cfg.ClusterKey}
	if files.Set() {
		t, err := files.Load()
		if err != nil {
			return nil, fmt.Errorf("--cluster: %w", err)
		}
		mem.tls = t
	}
	if plain := shared.PlaintextBeyondLoopback(cfg.ClusterEtcd, mem.tls != nil); len(plain) > 0 {
		if !cfg.ClusterPlaintextEtcd {
			return nil, fmt.Errorf("--cluster: etcd at %s is beyond loopback and spoken to without TLS, where anyone on the path reads and writes the shared state; give BUDDI_CLUSTER_CA, BUDDI_CLUSTER_CERT and BUDDI_CLUSTER_KEY (and https:// endpoints), or pass --cluster-plaintext-etcd to accept that", strings.Join(plain, ", "))
		}
		log.Warn("--cluster-plaintext-etcd: this member speaks to etcd beyond loopback without TLS; anyone on the path reads the shared state", "etcd", strings.Join(plain, ", "))
	}
	ctx, cancel := context.WithTimeout(context.Background(), clusterOpenWait)
	defer cancel()
	st, err := shared.Open(ctx, shared.Config{Endpoints: cfg.ClusterEtcd, Prefix: shared.DefaultPrefix, TLS: mem.etcdTLS(), Secret: secret,
		Generations: filepath.Join(cfg.DataDir, GenerationsFile), Log: log})
	var down *shared.UnreachableError
	switch {
	case errors.As(err, &down):
		how := "if it requires TLS, give BUDDI_CLUSTER_CA, BUDDI_CLUSTER_CERT and BUDDI_CLUSTER_KEY"
		if mem.tls != nil {
			how = "check that it trusts the CA in BUDDI_CLUSTER_CA and serves TLS"
		}
		return nil, fmt.Errorf("--cluster: etcd at %s does not answer (%w), so this member does not start; start etcd, set BUDDI_CLUSTER_ETCD to its client endpoints, or, %s", strings.Join(down.Endpoints, ", "), down.Err, how)
	case err != nil:
		return nil, fmt.Errorf("--cluster: %w", err)
	}
	if err := st.Join(ctx); err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("--cluster: %w", err)
	}
	mem.shared = st
	return mem, nil
}

// etcdTLS is how this member reaches etcd: nil in the clear.
func (mem *Self) etcdTLS() *tls.Config {
	if mem.tls == nil {
		return nil
	}
	return mem.tls.Client()
}

// memberTLS is the members' transport's TLS: nil in the clear.
func (mem *Self) memberTLS() *tls.Config {
	if mem.tls == nil {
		return nil
	}
	return mem.tls.Member()
}

// Join feeds the controller what this member's watches learn of the shared
// Stop, agents and site answers, registers the member (joinCluster), mirrors
// its tasks, joins the grains and relays its events. The first event of
// each watch is delivered before it returns, so the member knows of a Stop
// and of every agent before it serves anyone.
func (mem *Self) Join(p Parts) error {
	mem.parts = p
	ctx, cancel := context.WithCancel(context.Background())
	var waits []func()
	mem.unwatch = func() {
		cancel()
		for _, w := range waits {
			w()
		}
	}
	if err := mem.watchStop(ctx); err != nil {
		return err
	}
	stop, err := mem.joinCluster(ctx)
	if err != nil {
		return err
	}
	waits = append(waits, stop)
	if err := mem.watchAgents(ctx); err != nil {
		return err
	}
	if err := mem.watchSites(ctx); err != nil {
		return err
	}
	// every conversation's records, followed so that a conversation
	// adopted later is not taken with an older record written back
	if err := mem.shared.FollowGenerations(ctx, shared.Homes, shared.Tasks, shared.Steps); err != nil {
		return fmt.Errorf("follow the cluster's conversations: %w", err)
	}
	waits = append(waits, mem.mirrorTasks(ctx))
	mem.relay = &relay{mem: mem, heard: map[messages.Event]bool{}}
	if err := mem.startGrains(); err != nil {
		return err
	}
	waits = append(waits, mem.relay.start(ctx))
	return nil
}

func (mem *Self) watchStop(ctx context.Context) error {
	err := mem.shared.Watch(ctx, func(ev shared.Event) {
		m := &messages.ClusterStop{Reachable: ev.Reachable, Stopped: ev.State.Stopped, At: ev.State.At, Rev: ev.State.Rev}
		var down *shared.UnreachableError
		switch {
		case errors.As(ev.Err, &down):
			m.Why = "etcd at " + strings.Join(down.Endpoints, ", ") + " does not answer"
		case ev.Err != nil:
			m.Why = ev.Err.Error()
		}
		mem.parts.Root.Send(mem.parts.Stop, m)
	})
	if err != nil {
		return fmt.Errorf("watch the cluster's Stop: %w", err)
	}
	return nil
}

// Close leaves the grains' cluster (handing this member's conversations to
// the others), ends the watches and closes the client; nil-safe.
func (mem *Self) Close() error {
	if mem == nil {
		return nil
	}
	if mem.grains != nil {
		mem.grains.Shutdown(true)
	}
	if mem.unwatch != nil {
		mem.unwatch()
	}
	return mem.shared.Close()
}

// Claims counts the conversations this member tried to claim in etcd
// (new work here: a first call, a task, a move).
func (mem *Self) Claims() int64 { return mem.claims.Load() }

// SharedStop is the stop actor's view of the store: nil (an interface
// holding no store) on one host.
func (mem *Self) SharedStop() stop.Shared {
	if mem == nil {
		return nil
	}
	return mem.shared
}

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
	if mem.memberID, err = memberID(cfg.DataDir); err != nil {
		_ = st.Close()
		return nil, fmt.Errorf("--cluster: %w", err)
	}
	if err := mem.learnGenerations(); err != nil {
		_ = st.Close()
		return nil, err
	}
	return mem, nil
}

// syncWait bounds a starting member's wait for the other members'
// generations of the cluster's records.
const syncWait = 5 * time.Second

// learnGenerations asks the running members for the newest generation
// they have verified of every record (shared.LearnGenerations) before this
// member reads any, so that it refuses an older record written back to
// etcd while it was away or before it ever ran. A member that founded the
// cluster has nothing to learn. One that remembers generations itself
// (its file) goes on with them when no one answers. One that remembers
// nothing and hears from no one does not start, unless the owner said to
// trust etcd (--cluster-trust-etcd): it could not tell the newest records
// from older ones written back.
func (mem *Self) learnGenerations() error {
	st := mem.shared
	if st.Founded() {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), syncWait+clusterOpenWait)
	defer cancel()
	got, err := st.LearnGenerations(ctx, mem.memberID, syncWait, st.Remembers() || mem.cfg.ClusterTrustEtcd)
	switch {
	case err != nil:
		return fmt.Errorf("--cluster: ask the other members for the generations of the cluster's records: %w", err)
	case len(got.Answered) > 0:
		mem.log.Info("learned the generations of the cluster's records from the other members", "answered", strings.Join(got.Answered, ","), "raised", got.Keys)
	case st.Remembers():
		if len(got.Asked) > 0 {
			mem.log.Warn("no other member answered for the generations of the cluster's records; this member refuses the records older than those it saw before it stopped", "asked", strings.Join(got.Asked, ","))
		}
	case mem.cfg.ClusterTrustEtcd:
		mem.log.Warn("--cluster-trust-etcd: this member remembers no generation of the cluster's records and no other member answered; it takes the newest validly signed records etcd holds, where an older one written back is not told apart")
	default:
		return fmt.Errorf("--cluster: this member remembers no generation of the cluster's records (%s is missing from its data directory) and no other member answered within %v, so it cannot tell the newest records in etcd from older ones written back; start it while another member runs, copy %s from a member's data directory, or, if every member's data is lost, start one with --cluster-trust-etcd", GenerationsFile, syncWait, GenerationsFile)
	}
	return nil
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
	// what it has read, told to members that start after it
	if err := mem.shared.ServeGenerations(ctx, mem.memberID); err != nil {
		return fmt.Errorf("answer other members for the cluster's generations: %w", err)
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

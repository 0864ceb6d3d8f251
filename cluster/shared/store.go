package shared

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
)

// reconnectMaxDelay caps gRPC's wait between reconnection attempts (its
// default grows to two minutes), so a host notices soon after etcd is back.
const reconnectMaxDelay = 2 * time.Second

// Store is one host's connection to the shared state in etcd.
type Store struct {
	cli        *clientv3.Client
	endpoints  []string
	prefix     string
	stopKey    string
	membersKey string // <prefix>/members/, before each member's id
	secretKey  string // <prefix>/secret, the signed check record
	signKey    []byte // Secret.RecordKey
	log        *slog.Logger
	refused    refusals
	gens       *gens // the newest generation seen at each key (gen.go)
	founded    bool  // Join founded the cluster (set before the Store is shared)

	// life is cancelled by Close; every Watch goroutine ends with it.
	life   context.Context
	cancel context.CancelFunc

	mu      sync.Mutex // guards closed and the Add side of watches
	closed  bool
	watches sync.WaitGroup
}

// Open connects to etcd and returns once it has answered a read, or fails
// with an *UnreachableError after cfg.DialTimeout or when ctx ends.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	cfg, err := cfg.validate()
	if err != nil {
		return nil, err
	}
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:            cfg.Endpoints,
		DialTimeout:          cfg.DialTimeout,
		TLS:                  cfg.TLS,
		DialKeepAliveTime:    5 * time.Second,
		DialKeepAliveTimeout: 2 * time.Second,
		Logger:               zap.NewNop(),
		DialOptions: []grpc.DialOption{grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: reconnectMaxDelay},
			MinConnectTimeout: time.Second,
		})},
	})
	if err != nil {
		return nil, &UnreachableError{Endpoints: cfg.Endpoints, Err: err}
	}
	// The client connects lazily; one linearizable read proves a quorum
	// answers before Open says it is open.
	dctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()
	if _, err := cli.Get(dctx, cfg.Prefix+"/stop", clientv3.WithCountOnly()); err != nil {
		_ = cli.Close()
		return nil, &UnreachableError{Endpoints: cfg.Endpoints, Err: err}
	}
	g := &gens{path: cfg.Generations, warn: cfg.Log.Warn}
	durable := []string{cfg.Prefix + "/stop", cfg.Prefix + "/" + string(Agents) + "/", cfg.Prefix + "/" + string(Sites) + "/"}
	g.durable = func(key string) bool {
		for _, d := range durable {
			if key == d || (strings.HasSuffix(d, "/") && strings.HasPrefix(key, d)) {
				return true
			}
		}
		return false
	}
	if err := g.load(); err != nil {
		_ = cli.Close()
		return nil, err
	}
	life, cancel := context.WithCancel(context.Background())
	return &Store{
		gens:       g,
		cli:        cli,
		endpoints:  cfg.Endpoints,
		prefix:     cfg.Prefix,
		stopKey:    cfg.Prefix + "/stop",
		membersKey: cfg.Prefix + "/members/",
		secretKey:  cfg.Prefix + "/secret",
		signKey:    cfg.Secret.RecordKey(),
		log:        cfg.Log,
		life:       life,
		cancel:     cancel,
	}, nil
}

// Close ends every Watch, waits for their goroutines, and closes the etcd
// client. It is safe to call more than once.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.cancel()
	s.watches.Wait()
	return s.cli.Close()
}

func (s *Store) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

func (s *Store) unreachable(err error) error {
	return &UnreachableError{Endpoints: s.endpoints, Err: err}
}

func (s *Store) now() time.Time { return time.Now() }

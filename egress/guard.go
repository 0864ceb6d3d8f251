package egress

import (
	"context"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"maps"
	"net"
	"net/netip"
	"sync"
	"syscall"
	"time"
)

// Guard is the SOCKS5 proxy the browser is confined to, listening on an
// ephemeral 127.0.0.1 port. It serves CONNECT only, resolves every name
// itself, checks every address of it, and dials exactly the addresses it
// checked. Build it with Listen; stop it with Close.
type Guard struct {
	cfg    Config
	r      *rules
	ln     net.Listener
	self   netip.AddrPort
	log    *slog.Logger
	libLog *log.Logger // go-socks5's own messages, at debug level
	dial   dialFunc
	epoch  time.Time
	ctx    context.Context // cancelled by Close: ends lookups and dials
	cancel context.CancelFunc

	wg sync.WaitGroup // the accept loop and one per connection

	mu       sync.Mutex
	closed   bool
	sessions map[*session]struct{}
	accepted uint64
	refused  map[string]uint64
}

// Stats is a snapshot of what a Guard has done.
type Stats struct {
	Accepted uint64 // connections accepted since Listen
	Active   int    // connections open now
	// Refused counts refused requests by reason: an address class name
	// ("loopback", "private", "cgnat", …), "port", "air_gap", "bind",
	// "udp_associate", "command", "proxy_self", "bad_host", "lookup_failed",
	// "browser_service" (a host only the browser's own machinery uses),
	// "never_automate" or "host_not_allowed".
	Refused map[string]uint64
}

// Listen validates cfg, listens on 127.0.0.1 on a port the system picks,
// and starts serving.
func Listen(cfg Config) (*Guard, error) {
	if _, err := compile(cfg); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("egress: cannot listen on 127.0.0.1: %w", err)
	}
	g, err := Serve(cfg, ln)
	if err != nil {
		_ = ln.Close()
	}
	return g, err
}

// Serve validates cfg and serves ln, a TCP listener made elsewhere (inside
// the browser's own network namespace, for one). The guard owns ln from
// here on, and closes it with Close; on an error ln is left open.
func Serve(cfg Config, ln net.Listener) (*Guard, error) {
	r, err := compile(cfg)
	if err != nil {
		return nil, err
	}
	tcp, ok := ln.Addr().(*net.TCPAddr)
	if !ok {
		return nil, fmt.Errorf("egress: the guard serves TCP, not %s", ln.Addr().Network())
	}
	cfg = cfg.withDefaults()
	g := &Guard{
		cfg:      cfg,
		r:        r,
		ln:       ln,
		self:     tcp.AddrPort(),
		log:      cfg.Logger.With("component", "egress"),
		dial:     cfg.dial,
		epoch:    time.Now(),
		sessions: map[*session]struct{}{},
		refused:  map[string]uint64{},
	}
	g.libLog = slog.NewLogLogger(g.log.Handler(), slog.LevelDebug)
	if g.dial == nil {
		g.dial = g.dialChecked
	}
	g.ctx, g.cancel = context.WithCancel(context.Background())
	g.wg.Add(1)
	go g.acceptLoop()
	return g, nil
}

// Addr is the guard's address, "127.0.0.1:port", for ChromiumFlags. For a
// guard serving a listener in another network namespace, it is the address
// there.
func (g *Guard) Addr() string { return g.self.String() }

// Close stops accepting, closes every live connection (client and
// destination), and returns once every goroutine the guard started is done.
// It is safe to call more than once.
func (g *Guard) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	live := make([]*session, 0, len(g.sessions))
	for s := range g.sessions {
		live = append(live, s)
	}
	g.mu.Unlock()

	g.cancel()
	err := g.ln.Close()
	for _, s := range live {
		s.closeConns()
	}
	g.wg.Wait()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// Stats returns a snapshot of the counters.
func (g *Guard) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return Stats{Accepted: g.accepted, Active: len(g.sessions), Refused: maps.Clone(g.refused)}
}

func (g *Guard) acceptLoop() {
	defer g.wg.Done()
	var backoff time.Duration
	for {
		c, err := g.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			g.log.Warn("egress accept failed", "err", err, "retry_in", backoff)
			select {
			case <-time.After(backoff):
				continue
			case <-g.ctx.Done():
				return
			}
		}
		backoff = 0
		if s := g.register(c); s != nil {
			go g.serve(s)
		}
	}
}

// register adds a session for c, or closes c when the guard is closing.
func (g *Guard) register(c net.Conn) *session {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		_ = c.Close()
		return nil
	}
	g.accepted++
	s := newSession(g, c)
	g.sessions[s] = struct{}{}
	g.wg.Add(1)
	return s
}

func (g *Guard) unregister(s *session) {
	g.mu.Lock()
	delete(g.sessions, s)
	g.mu.Unlock()
}

// refuse counts and logs one refused request.
func (g *Guard) refuse(reason, host string, port int, addrs []netip.Addr) {
	g.mu.Lock()
	g.refused[reason]++
	g.mu.Unlock()
	g.log.Info("egress refused", "host", host, "port", port, "reason", reason, "addrs", addrs)
}

// now is monotonic time since Listen, for idle bookkeeping.
func (g *Guard) now() time.Duration { return time.Since(g.epoch) }

var errNotChecked = errors.New("egress: refusing to dial an address that was not checked")

// dialChecked dials addr, an IP and port the session has checked, and makes
// sure at the socket level that this is the address being connected to.
func (g *Guard) dialChecked(ctx context.Context, network, addr string) (net.Conn, error) {
	d := net.Dialer{
		Timeout: g.cfg.DialTimeout,
		ControlContext: func(_ context.Context, _, address string, _ syscall.RawConn) error {
			if address != addr {
				return errNotChecked
			}
			return nil
		},
	}
	return d.DialContext(ctx, network, addr)
}

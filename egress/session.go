package egress

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	socks5 "github.com/armon/go-socks5"
)

// session is one client connection. Its serving goroutine runs the SOCKS
// handshake (go-socks5 calls Resolve, then Allow, then dial, in that order,
// all on that goroutine); closeConns may be called from anywhere.
type session struct {
	g      *Guard
	client *trackedConn
	ctx    context.Context // cancelled when the session ends
	cancel context.CancelFunc
	// handshakeEnd bounds the whole handshake, lookup and dial included.
	handshakeEnd time.Time
	last         atomic.Int64 // Guard.now() at the last byte either way
	// replyPending is set once the destination is dialled: the next write to
	// the client is go-socks5's success reply, after which it starts two
	// relay goroutines, each ending with CloseWrite on its destination.
	replyPending atomic.Bool
	relay        sync.WaitGroup

	// Set by Resolve, read by Allow and dial: serving goroutine only.
	addrs []netip.Addr
	dests []netip.AddrPort

	mu     sync.Mutex
	closed bool
	target *trackedConn
	idle   *time.Timer
}

var (
	_ socks5.NameResolver = (*session)(nil)
	_ socks5.RuleSet      = (*session)(nil)
)

func newSession(g *Guard, c net.Conn) *session {
	s := &session{g: g, handshakeEnd: time.Now().Add(g.cfg.HandshakeTimeout)}
	s.ctx, s.cancel = context.WithCancel(g.ctx)
	s.client = &trackedConn{Conn: c, s: s, client: true}
	s.touch()
	return s
}

func (g *Guard) serve(s *session) {
	defer g.wg.Done()
	defer g.unregister(s)
	_ = s.client.SetDeadline(s.handshakeEnd)
	srv, err := socks5.New(&socks5.Config{Resolver: s, Rules: s, Dial: s.dial, Logger: g.libLog})
	if err == nil {
		_ = srv.ServeConn(s.client) // failures are logged by Allow, or by the library at debug level
	}
	s.closeConns()
	s.relay.Wait()
}

func (s *session) touch() { s.last.Store(int64(s.g.now())) }

// stepContext bounds one lookup or dial: DialTimeout, and never past the
// end of the handshake.
func (s *session) stepContext() (context.Context, context.CancelFunc) {
	end := time.Now().Add(s.g.cfg.DialTimeout)
	if s.handshakeEnd.Before(end) {
		end = s.handshakeEnd
	}
	return context.WithDeadline(s.ctx, end)
}

var (
	errNoAddress = errors.New("egress: the name has no address")
	errBadName   = errors.New("egress: not a host name")
	// errServiceHost refuses a host that only the browser's own machinery
	// uses (serviceHosts).
	errServiceHost = errors.New("egress: a host of the browser's own services")
	// errRefusedName refuses a name by the URL rules (never-automate, the
	// host list, air-gap) before anything is asked of DNS.
	errRefusedName = errors.New("egress: the URL rules refuse this name")
)

// Resolve looks name up once, through the configured resolver, and keeps
// every address for Allow to check. It never returns a nil IP without an
// error. localhost and names under it are loopback and never asked of DNS;
// the browser's own service hosts are refused without a lookup, and so is
// a name the URL rules refuse by itself (never-automate, outside the host
// list, anything but a preview origin under air-gap): a frame or popup
// CheckURL refused cannot still reach it through a preconnect or a request
// sent before the check.
func (s *session) Resolve(ctx context.Context, name string) (context.Context, net.IP, error) {
	h, err := parseHost(name)
	if err != nil {
		s.g.refuse("bad_host", name, 0, nil)
		return ctx, nil, errBadName
	}
	if serviceHost(h.bare()) {
		s.g.refuse("browser_service", name, 0, nil)
		return ctx, nil, errServiceHost
	}
	if reason := s.g.r.nameRefusal(h); reason != "" {
		s.g.refuse(reason, name, 0, nil)
		return ctx, nil, errRefusedName
	}
	if _, found := hostSecret(h.bare(), s.g.r.known); found && !h.isIP() && !s.g.r.previewHost(h.String()) {
		s.g.refuse("secret_in_host", "(a name carrying a secret)", 0, nil) // the name itself is not logged
		return ctx, nil, errRefusedName
	}
	var addrs []netip.Addr
	switch {
	case h.isIP():
		addrs = []netip.Addr{h.addr}
	case isLocalhost(h.bare()):
		addrs = []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1}), netip.IPv6Loopback()}
	default:
		lctx, cancel := s.stepContext()
		got, err := s.g.cfg.Resolver.LookupNetIP(lctx, "ip", h.name)
		cancel()
		for _, a := range got {
			if a.IsValid() {
				addrs = append(addrs, a.Unmap())
			}
		}
		if err != nil || len(addrs) == 0 {
			s.g.refuse("lookup_failed", name, 0, nil)
			return ctx, nil, errNoAddress
		}
	}
	s.addrs = addrs
	return ctx, net.IP(addrs[0].AsSlice()), nil
}

// Allow decides a request: CONNECT only; a preview origin's exact host and
// port to loopback; otherwise ports 80 and 443 to addresses that are all
// public. What it allows is the list of addresses dial may use.
func (s *session) Allow(ctx context.Context, req *socks5.Request) (context.Context, bool) {
	d := req.DestAddr
	label, port := d.FQDN, d.Port
	var addrs []netip.Addr
	if d.FQDN != "" {
		addrs = s.addrs
	} else if a, ok := netip.AddrFromSlice(d.IP); ok {
		label, addrs = a.String(), []netip.Addr{a}
	}
	if reason := s.decide(req.Command, label, port, addrs); reason != "" {
		s.g.refuse(reason, label, port, addrs)
		return ctx, false
	}
	for _, a := range addrs {
		s.dests = append(s.dests, netip.AddrPortFrom(a.Unmap(), uint16(port)))
	}
	s.g.log.Debug("egress allowed", "host", label, "port", port, "addrs", addrs)
	return ctx, true
}

// decide returns "" to allow, or the reason for refusing. label is the
// destination as the client sent it: a name, or an address.
func (s *session) decide(cmd uint8, label string, port int, addrs []netip.Addr) string {
	switch {
	case cmd == socks5.BindCommand:
		return "bind"
	case cmd == socks5.AssociateCommand:
		return "udp_associate"
	case cmd != socks5.ConnectCommand:
		return "command"
	case len(addrs) == 0:
		return "bad_host"
	case port < 1 || port > 65535:
		return "port"
	case s.targetsSelf(addrs, uint16(port)):
		return "proxy_self"
	case s.g.r.previewPair(label, uint16(port)):
		return refusedClass(addrs, func(c Class) bool { return c == ClassLoopback }) // a preview leads only here
	case s.g.r.airGap:
		return "air_gap"
	case !s.g.r.listed(label):
		return "host_not_allowed"
	}
	if r := refusedClass(addrs, Class.Allowed); r != "" {
		return r
	}
	if port != 80 && port != 443 {
		return "port"
	}
	return ""
}

func (s *session) targetsSelf(addrs []netip.Addr, port uint16) bool {
	for _, a := range addrs {
		if netip.AddrPortFrom(a.Unmap(), port) == s.g.self || s.g.r.self.addrIs(a, port) {
			return true
		}
	}
	return false
}

// refusedClass is the class name of the first address ok refuses, or "".
func refusedClass(addrs []netip.Addr, ok func(Class) bool) string {
	for _, a := range addrs {
		if c := Classify(a); !ok(c) {
			return c.String()
		}
	}
	return ""
}

// dial connects to the addresses Allow checked, in order, and never to
// anything else: addr, go-socks5's idea of the destination, is ignored.
func (s *session) dial(_ context.Context, network, _ string) (net.Conn, error) {
	if len(s.dests) == 0 {
		return nil, errNotChecked
	}
	ctx, cancel := s.stepContext()
	defer cancel()
	var first error
	for _, d := range s.dests {
		c, err := s.g.dial(ctx, network, d.String())
		if err == nil {
			return s.startRelay(c)
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, first
}

// startRelay ends the handshake: its deadline is lifted and the idle
// watchdog takes over for both connections.
func (s *session) startRelay(c net.Conn) (net.Conn, error) {
	t := &trackedConn{Conn: c, s: s}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = c.Close()
		return nil, net.ErrClosed
	}
	s.target = t
	s.touch()
	_ = s.client.SetDeadline(time.Time{})
	s.replyPending.Store(true)
	s.idle = time.AfterFunc(s.g.cfg.IdleTimeout, s.checkIdle)
	return t, nil
}

func (s *session) checkIdle() {
	quiet := s.g.now() - time.Duration(s.last.Load())
	if quiet >= s.g.cfg.IdleTimeout {
		s.g.log.Debug("egress idle connection closed", "idle", quiet)
		s.closeConns()
		return
	}
	s.mu.Lock()
	if !s.closed {
		s.idle.Reset(s.g.cfg.IdleTimeout - quiet)
	}
	s.mu.Unlock()
}

// closeConns closes both ends and stops the watchdog; blocked reads and
// writes on either end return at once. Safe to call more than once.
func (s *session) closeConns() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	s.cancel()
	if s.idle != nil {
		s.idle.Stop()
	}
	_ = s.client.Close()
	if s.target != nil {
		_ = s.target.Close()
	}
}

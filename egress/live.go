package egress

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"

	"github.com/buddi-dev/buddi/egress/netns"
	"github.com/buddi-dev/buddi/messages"
)

// Live is the install's egress as it runs: the URL rules in force, swapped
// whole when air-gap is turned on or off, and the guard the browser dials
// through, started the first time a browser needs it and started afresh
// after air-gap changed (which happens with every browser closed, so no
// browser dials through the old guard).
//
// Concurrency: safe for concurrent use. The rules are read without a lock;
// mu guards the guard, the browser's network and the configuration.
type Live struct {
	rules atomic.Pointer[Policy]

	mu    sync.Mutex
	cfg   Config
	guard *Guard
	ns    *netns.Namespace // the browser's own network, when buddi runs as root
}

// NewLive builds the rules from cfg; nothing listens yet.
func NewLive(cfg Config) (*Live, error) {
	pol, err := NewPolicy(cfg)
	if err != nil {
		return nil, err
	}
	l := &Live{cfg: cfg}
	l.rules.Store(pol)
	return l, nil
}

// Rules are the URL rules in force now.
func (l *Live) Rules() *Policy { return l.rules.Load() }

// CheckURL checks a navigation the agent asked for.
func (l *Live) CheckURL(raw, source string) error { return l.Rules().CheckURL(raw, Source(source)) }

// CheckInput refuses input to pages outside the preview origins under air-gap.
func (l *Live) CheckInput(pageURL string) error { return l.Rules().CheckInput(pageURL) }

// Listed reports whether a page is on the install's browser hosts.
func (l *Live) Listed(pageURL string) bool { return l.Rules().Listed(pageURL) }

// Preview reports whether raw is one of the owner's preview origins.
func (l *Live) Preview(raw string) bool { return l.Rules().Preview(raw) }

// Masked adds values masked in what an agent read to the values no URL may
// carry (the rules share one set of them, whichever is in force).
func (l *Live) Masked(values []string) { l.Rules().Masked(values) }

// Reach is what the rules let the browser open, as agents are told.
func (l *Live) Reach() *messages.Reach {
	airGap, hosts, previews := l.Rules().Reach()
	return &messages.Reach{AirGap: airGap, Hosts: hosts, Previews: previews}
}

// Confine starts the guard the first time a browser needs it and says how
// a browser is launched behind it: its switches (ChromiumFlags) and, as
// root, the network namespace made for it, whose only route out is the
// guard. Elsewhere, or where the system refuses a namespace, the guard
// listens on the host's loopback and netNS is "".
func (l *Live) Confine() (flags []string, netNS string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.guard == nil {
		if err := l.listen(); err != nil {
			return nil, "", err
		}
	}
	if l.ns != nil {
		netNS = l.ns.Path()
	}
	return ChromiumFlags(l.guard.Addr()), netNS, nil
}

// listen starts the guard; the caller holds l.mu.
func (l *Live) listen() error {
	if os.Geteuid() == 0 {
		ns, err := netns.New()
		if err == nil {
			g, err := Serve(l.cfg, ns.Listener())
			if err != nil {
				_ = ns.Listener().Close()
				_ = ns.Close()
				return err
			}
			l.guard, l.ns = g, ns
			return nil
		}
		l.cfg.withDefaults().Logger.Warn("the browser shares the host's network: no network namespace of its own", "err", err)
	}
	g, err := Listen(l.cfg)
	if err != nil {
		return err
	}
	if err := l.Rules().AddSelf(g.Addr()); err != nil {
		_ = g.Close()
		return err
	}
	l.guard = g
	return nil
}

// SetAirGap swaps the rules for ones with air-gap on or off and closes the
// guard (and the browser's network), which the next browser starts afresh
// with the new setting.
func (l *Live) SetAirGap(on bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	cfg := l.cfg
	cfg.AirGap = on
	pol, err := NewPolicy(cfg)
	if err != nil {
		return err
	}
	l.cfg = cfg
	l.rules.Store(pol)
	return l.stopGuard()
}

// Refusals is the guard's refused connections by reason (none before it
// runs; counted afresh when air-gap changes).
func (l *Live) Refusals() map[string]uint64 {
	l.mu.Lock()
	g := l.guard
	l.mu.Unlock()
	if g == nil {
		return nil
	}
	return g.Stats().Refused
}

// Close closes the guard and the browser's network.
func (l *Live) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stopGuard()
}

// stopGuard closes the guard and the browser's network; the caller holds l.mu.
func (l *Live) stopGuard() error {
	var errs []error
	if l.guard != nil {
		errs = append(errs, l.guard.Close())
		l.guard = nil
	}
	if l.ns != nil {
		errs = append(errs, l.ns.Close())
		l.ns = nil
	}
	return errors.Join(errs...)
}

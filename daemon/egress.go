package daemon

import (
	"errors"
	"os"
	"sync"
	"sync/atomic"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/egress/netns"
	"github.com/buddi-dev/buddi/messages"
)

// egressParts are the SOCKS guard the browser dials through and the URL
// rules navigations are checked against. Both follow the air-gap setting:
// the rules are swapped at once, and the guard is started afresh with it
// the next time a browser needs it (air-gap changes with every browser
// closed, so no browser dials through the old guard).
type egressParts struct {
	mu     sync.Mutex
	cfg    egress.Config
	guard  *egress.Guard
	ns     *netns.Namespace // the browser's own network, when buddi runs as root
	policy *urlPolicy
	// airGapEnv says BUDDI_AIR_GAP sets air-gap (the dashboard cannot
	// turn it off): the way back agents are told is then a restart.
	airGapEnv bool
}

// urlPolicy adapts egress.Policy to what sessions call; the rules it holds
// are replaced when air-gap is turned on or off.
type urlPolicy struct{ p atomic.Pointer[egress.Policy] }

func (u *urlPolicy) rules() *egress.Policy { return u.p.Load() }

// CheckURL checks a navigation the agent asked for.
func (u *urlPolicy) CheckURL(raw, source string) error {
	return u.rules().CheckURL(raw, egress.Source(source))
}

// CheckInput refuses input to pages outside the preview origins under air-gap.
func (u *urlPolicy) CheckInput(pageURL string) error { return u.rules().CheckInput(pageURL) }

// Listed reports whether a page is on the install's browser hosts (the
// rules in force now).
func (u *urlPolicy) Listed(pageURL string) bool { return u.rules().Listed(pageURL) }

// Preview reports whether raw is one of the owner's preview origins.
func (u *urlPolicy) Preview(raw string) bool { return u.rules().Preview(raw) }

// startEgress builds the URL rules from the configuration. A mode that
// serves its own origins (the simulated site) has them added to the owner's
// preview origins: the rules themselves are the production ones. self is
// buddi's own HTTP address, which the browser may never open.
func startEgress(cfg egress.Config, mode drivers.Mode, o Options, self string) (*egressParts, error) {
	if s, ok := mode.(drivers.Served); ok {
		cfg.PreviewOrigins = append(append([]string(nil), cfg.PreviewOrigins...), s.ServedOrigins()...)
	}
	cfg.Self = append(append([]string(nil), cfg.Self...), self)
	cfg.Logger = o.Log
	pol, err := egress.NewPolicy(cfg)
	if err != nil {
		return nil, err
	}
	e := &egressParts{cfg: cfg, policy: &urlPolicy{}, airGapEnv: o.Config.Given[varAirGap]}
	e.policy.p.Store(pol)
	return e, nil
}

// listen starts the guard the first time a browser needs it. As root it
// serves a listener inside a network namespace made for the browser, whose
// only route out is then the guard; elsewhere, or where the system refuses
// a namespace, it listens on the host's loopback.
func (e *egressParts) listen() (*egress.Guard, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.guard != nil {
		return e.guard, nil
	}
	if os.Geteuid() == 0 {
		ns, err := netns.New()
		if err == nil {
			g, err := egress.Serve(e.cfg, ns.Listener())
			if err != nil {
				_ = ns.Listener().Close()
				_ = ns.Close()
				return nil, err
			}
			e.guard, e.ns = g, ns
			return g, nil
		}
		e.cfg.Logger.Warn("the browser shares the host's network: no network namespace of its own", "err", err)
	}
	g, err := egress.Listen(e.cfg)
	if err != nil {
		return nil, err
	}
	if err := e.policy.rules().AddSelf(g.Addr()); err != nil {
		_ = g.Close()
		return nil, err
	}
	e.guard = g
	return g, nil
}

// netNS is the path the browser joins its network namespace by, or "".
func (e *egressParts) netNS() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ns == nil {
		return ""
	}
	return e.ns.Path()
}

// setAirGap swaps the rules for ones with air-gap on or off and closes the
// guard (and the browser's network), which the next browser starts afresh
// with the new setting.
func (e *egressParts) setAirGap(on bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	cfg := e.cfg
	cfg.AirGap = on
	pol, err := egress.NewPolicy(cfg)
	if err != nil {
		return err
	}
	e.cfg = cfg
	e.policy.p.Store(pol)
	return e.stopGuard()
}

// reach is what the URL rules let the browser open, as agents are told.
func (e *egressParts) reach() *messages.Reach {
	airGap, hosts, previews := e.policy.rules().Reach()
	return &messages.Reach{AirGap: airGap, AirGapByEnv: airGap && e.airGapEnv, Hosts: hosts, Previews: previews}
}

// refusals is the guard's refused requests by reason (none before it runs).
func (e *egressParts) refusals() map[string]uint64 {
	e.mu.Lock()
	g := e.guard
	e.mu.Unlock()
	if g == nil {
		return nil
	}
	return g.Stats().Refused
}

func (e *egressParts) close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.stopGuard()
}

// stopGuard closes the guard and the browser's network; the caller holds e.mu.
func (e *egressParts) stopGuard() error {
	var errs []error
	if e.guard != nil {
		errs = append(errs, e.guard.Close())
		e.guard = nil
	}
	if e.ns != nil {
		errs = append(errs, e.ns.Close())
		e.ns = nil
	}
	return errors.Join(errs...)
}

package daemon

import (
	"os"
	"strings"

	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/egress/netns"
)

// egressParts are the SOCKS guard the browser dials through and the URL
// rules navigations are checked against.
type egressParts struct {
	cfg    egress.Config
	guard  *egress.Guard
	ns     *netns.Namespace // the browser's own network, when buddi runs as root
	policy *urlPolicy
}

// urlPolicy adapts egress.Policy to what sessions and drivers call.
type urlPolicy struct {
	p *egress.Policy
	// sim lets the simulated site through: it lives on the reserved .test
	// domain, which the real rules refuse, and nothing behind it is dialed.
	sim bool
}

// CheckURL checks a navigation the agent asked for.
func (u *urlPolicy) CheckURL(raw, source string) error {
	if u.sim && strings.HasPrefix(raw, sim.Origin+"/") && !u.p.AirGapped() {
		return nil
	}
	return u.p.CheckURL(raw, egress.Source(source))
}

// CheckInput refuses input to pages outside the preview origins under air-gap.
func (u *urlPolicy) CheckInput(pageURL string) error {
	if u.sim && strings.HasPrefix(pageURL, sim.Origin+"/") && !u.p.AirGapped() {
		return nil
	}
	return u.p.CheckInput(pageURL)
}

func startEgress(o Options) (*egressParts, error) {
	cfg, err := egress.ConfigFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	cfg.Logger = o.Log
	pol, err := egress.NewPolicy(cfg)
	if err != nil {
		return nil, err
	}
	simulated := o.Profile != nil || o.Config.Driver == "sim"
	return &egressParts{cfg: cfg, policy: &urlPolicy{p: pol, sim: simulated}}, nil
}

// listen starts the guard the first time a browser needs it. As root it
// serves a listener inside a network namespace made for the browser, whose
// only route out is then the guard; elsewhere, or where the system refuses
// a namespace, it listens on the host's loopback.
func (e *egressParts) listen() (*egress.Guard, error) {
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
	e.guard = g
	return g, nil
}

// netNS is the path the browser joins its network namespace by, or "".
func (e *egressParts) netNS() string {
	if e.ns == nil {
		return ""
	}
	return e.ns.Path()
}

func (e *egressParts) close() error {
	if e.guard == nil {
		return nil
	}
	err := e.guard.Close()
	if e.ns != nil {
		_ = e.ns.Close()
	}
	return err
}

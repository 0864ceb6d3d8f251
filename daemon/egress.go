package daemon

import (
	"os"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/egress/netns"

	"github.com/buddi-dev/buddi/messages"
)

// egressParts are the SOCKS guard the browser dials through and the URL
// rules navigations are checked against.
type egressParts struct {
	cfg    egress.Config
	guard  *egress.Guard
	ns     *netns.Namespace // the browser's own network, when buddi runs as root
	policy *urlPolicy
}

// urlPolicy adapts egress.Policy to what sessions call.
type urlPolicy struct{ p *egress.Policy }

// CheckURL checks a navigation the agent asked for.
func (u *urlPolicy) CheckURL(raw, source string) error {
	return u.p.CheckURL(raw, egress.Source(source))
}

// CheckInput refuses input to pages outside the preview origins under air-gap.
func (u *urlPolicy) CheckInput(pageURL string) error { return u.p.CheckInput(pageURL) }

// Preview reports whether raw is one of the owner's preview origins.
func (u *urlPolicy) Preview(raw string) bool { return u.p.Preview(raw) }

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
	return &egressParts{cfg: cfg, policy: &urlPolicy{p: pol}}, nil
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
	if err := e.policy.p.AddSelf(g.Addr()); err != nil {
		_ = g.Close()
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

// reach is what the URL rules let the browser open, as agents are told.
func (e *egressParts) reach() *messages.Reach {
	airGap, hosts, previews := e.policy.p.Reach()
	return &messages.Reach{AirGap: airGap, Hosts: hosts, Previews: previews}
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

package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/desktop"
	"github.com/buddi-dev/buddi/actors/hand"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/doctor"
	"github.com/buddi-dev/buddi/drivers"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/native/protocol"
	"github.com/buddi-dev/buddi/settings"
)

// buildModes builds the modes this install offers: the Playwright mode and Your
// browser always; the simulated one when the configuration asks for it
// (BUDDI_DRIVER=sim), or the mode the caller passes (tests and the load
// test): this is the one place production code chooses the simulated
// driver. Use my apps is offered when its helper is found and finds a
// display and the accessibility bus; it is never the configuration's, only
// the owner's choice in settings.json, and a stored choice on a host
// without the helper starts the configuration's mode and leaves the file
// as written. The mode to start in is the caller's, else the one
// settings.json names if offered, else the configuration's.
func (w *wiring) buildModes() error {
	checks, err := w.pageChecks()
	if err != nil {
		return err
	}
	pm, err := playwright.NewMode(playwright.ModeConfig{Browser: func() playwright.Config {
		c := doctor.PlaywrightConfig(w.config())
		c.CheckURL, c.OnRefused, c.CheckField, c.FieldRules, c.Logger = checks.url, checks.refused, walker.CheckTyping, checks.rules, w.o.Log
		c.OwnerURL = func(raw string) error { return w.d.egress.Rules().CheckURL(raw, egress.SourceOwner) }
		return c
	}, Confine: w.confine})
	if err != nil {
		return err
	}
	yours := extdriver.NewMode(extdriver.Config{Caller: w.d.extension,
		CheckURL:  func(raw string) error { return w.d.egress.Rules().CheckURL(raw, w.yourBrowserSource()) },
		OnRefused: checks.refused, CheckField: walker.CheckTyping, FieldRules: checks.rules, Logger: w.o.Log})
	modes := map[string]drivers.Mode{pm.Name(): pm, yours.Name(): yours}
	if w.cfg.Driver == "sim" {
		modes["sim"] = sim.NewMode(sim.Config{Hosts: w.cfg.SimHosts}, 0)
	}
	if m := w.o.Mode; m != nil {
		modes[m.Name()] = m
	}
	why := map[string]string{}
	if computer := w.computer(why); computer != nil {
		modes[computer.Name()] = computer
	}
	start := w.cfg.Driver
	switch {
	case w.o.Mode != nil:
		start = w.o.Mode.Name()
	case modes[w.file.Mode] != nil:
		start = w.file.Mode
	}
	if modes[start] == nil {
		return fmt.Errorf("daemon: unknown driver %q", start)
	}
	w.modes = settings.NewModes(modes, start, why)
	return nil
}

// computer is Use my apps when its helper is here and finds what it needs;
// why says otherwise. The controller's app gate answers for apps off the
// list before an open is dispatched (a card, then Once or Always), so what
// reaches the driver was approved.
func (w *wiring) computer(why map[string]string) *native.Mode {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	approved := func(context.Context, string, protocol.App) error { return nil }
	m, reason := native.Discover(ctx, w.cfg.ComputerHelper, native.Config{Logger: w.o.Log,
		Apps: func() native.Apps { return w.settings.Apps() }, Lock: desktop.Client{Root: w.d.sys.Root, PID: w.d.desk},
		Approve: approved})
	why[native.Name] = reason
	return m
}

// confine starts the egress guard for a browser of the Playwright mode.
func (w *wiring) confine() (playwright.Confinement, error) {
	flags, ns, err := w.d.egress.Confine()
	return playwright.Confinement{Args: flags, NetNS: ns}, err
}

// wipe removes the agents' browser profiles as air-gap is turned on,
// naming the sites that held a login in the shared one when the mode in
// use can read them (its browser is closed again).
func (w *wiring) wipe() (playwright.Wiped, error) {
	return playwright.WipeProfiles(w.o.Config.DataDir, func() ([]string, bool) {
		lg, ok := drivers.Current(w.modes).(drivers.Logins)
		if !ok {
			return nil, false
		}
		c, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		defer func() { _ = w.modes.Close(c) }()
		list, err := lg.Logins(c)
		if err != nil {
			w.o.Log.Warn("air-gap: the sites holding logins could not be read", "err", err)
			return nil, false
		}
		sites := make([]string, 0, len(list))
		for _, l := range list {
			sites = append(sites, l.Site)
		}
		return sites, true
	})
}

// checks are what both browser drivers hold every page to: the URL rules
// in force (egress), the record of the browser's own air-gap refusals,
// and the credential rules reads mask by.
type checks struct {
	url     func(raw string) error
	refused func(conv, url string, err error)
	rules   json.RawMessage
}

func (w *wiring) pageChecks() (checks, error) {
	rules, err := json.Marshal(egress.CredentialRules())
	if err != nil {
		return checks{}, err
	}
	return checks{
		url:     func(raw string) error { return w.d.egress.Rules().CheckURL(raw, egress.SourceRedirect) },
		refused: ledger.BrowserRefusals(w.d.sys.Root, w.d.ledger, w.admitRefusal),
		rules:   rules,
	}, nil
}

// admitRefusal names the agent of conv's session for a refusal the browser
// made itself, and says false when the session ended meanwhile (nobody to
// record it for) or the agent's refusals are past their rate.
func (w *wiring) admitRefusal(conv string) (string, bool) {
	s := w.routes.Session(conv)
	if s == nil {
		return "", false
	}
	return s.Shown().Agent, w.limits.Refusal(s.AgentID)
}

// yourBrowserSource is whom a page in Your browser is checked for. The
// check sees no conversation, so while the owner has any session taken
// over, pages are the owner's (SourceOwner: a sign-in's redirects carry
// codes that look like keys); else an agent's. In Your browser the check
// runs on the page Chrome already reached, so this costs the scan for
// secrets in URLs nothing it could still have stopped.
func (w *wiring) yourBrowserSource() egress.Source {
	for _, s := range w.routes.Sessions() {
		if s.State == messages.StateTakenOver {
			return egress.SourceOwner
		}
	}
	return egress.SourceRedirect
}

// config is the configuration in force: with the owner's settings once
// they are built.
func (w *wiring) config() config.Config {
	if w.settings != nil {
		return w.settings.Config()
	}
	return w.cfg
}

// hand makes the hand of one take-over.
func (o Options) hand(conversation string, open func(context.Context) (drivers.Tabs, error)) *actor.Props {
	cfg := o.Hand
	cfg.Conversation, cfg.Open = conversation, open
	if cfg.Log == nil {
		cfg.Log = o.Log
	}
	return hand.Props(cfg)
}

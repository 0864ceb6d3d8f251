package daemon

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/desktop"
	"github.com/buddi-dev/buddi/actors/extconn"
	"github.com/buddi-dev/buddi/actors/gateway"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/limits"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/actors/stop"
	"github.com/buddi-dev/buddi/cluster/member"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/doctor"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/metrics"
	"github.com/buddi-dev/buddi/secret"
	"github.com/buddi-dev/buddi/settings"
	"github.com/buddi-dev/buddi/ui"
	"github.com/buddi-dev/buddi/ui/audit"
	"github.com/buddi-dev/buddi/ui/limit"
	"github.com/buddi-dev/buddi/ui/telegram"
)

// wiring is what Start builds on its way: the daemon keeps the handles it
// closes, the steps share the rest.
type wiring struct {
	d        *Daemon
	o        Options
	hash     string // the owner token's
	created  bool   // the owner token was made by this start
	cfg      config.Config
	file     settings.File
	modes    *settings.Modes
	settings *settings.Settings
	routes   *routes.Table
	limits   *limits.Agents // the agents' rates, shared by the controller, its sessions and the browser's refusals
	bus      *events.Bus
	registry *metrics.Registry
	stops    *stop.Board
	notes    []string // lines for the owner, said once serving is
	secrets  *ownerSecrets
}

// owner reads the owner token's hash, making the token on the first start,
// and the owner's settings.json.
func (w *wiring) owner() (err error) {
	d := w.d
	if w.hash, w.created, err = instance.EnsureOwner(d.sys, d.ledger, d.store, w.o.Config.DataDir); err != nil {
		return err
	}
	if w.file, err = settings.Read(w.o.Config.DataDir); err != nil {
		return err
	}
	w.cfg = w.file.Over(w.o.Config)
	w.routes, w.bus, w.limits = routes.New(), events.New(), limits.New(nil)
	return nil
}

// listen binds buddi's address before the URL rules are built: its own
// address is never a page the browser may open.
func (w *wiring) listen() (err error) {
	if err := w.o.Config.CheckServeAddr(); err != nil {
		return err
	}
	c := w.o.Config
	var certs []tls.Certificate
	if c.TLSCert != "" {
		pair, err := tls.LoadX509KeyPair(c.TLSCert, c.TLSKey)
		if err != nil {
			return config.Invalid("the TLS files %s and %s cannot be used (%v); give a PEM certificate and its private key", c.TLSCert, c.TLSKey, err)
		}
		certs = []tls.Certificate{pair}
	}
	if w.d.ln, err = net.Listen("tcp", c.Addr); err != nil {
		return fmt.Errorf("daemon: listen on %s: %w; choose another --addr", c.Addr, err)
	}
	w.d.addr = w.d.ln.Addr().String()
	if certs != nil {
		w.d.ln = tls.NewListener(w.d.ln, &tls.Config{Certificates: certs, MinVersion: tls.VersionTLS12})
	}
	if c.Binding() == config.BindPlaintext {
		w.o.Log.Warn("serving plain HTTP beyond loopback, as --allow-remote asks: agent and owner tokens cross the network in clear", "addr", w.d.addr)
	}
	return nil
}

// desktop starts the desktop lock of Use my apps.
func (w *wiring) desktop() error {
	return w.d.spawn(&w.d.desk, desktop.Props(desktop.Config{Store: w.d.store, Ledger: w.d.ledger,
		Log: w.o.Log, Lease: w.o.DesktopLease}), "desktop")
}

// extension starts the connection of Your browser's extension.
func (w *wiring) extension() error {
	d, online := w.d, &atomic.Bool{}
	err := d.spawn(&d.ext, extconn.Props(extconn.Config{Dir: w.o.Config.DataDir,
		Name: "buddi " + w.o.Version + " at " + d.addr, Folder: extension.Find(w.o.ExtensionDir), Log: w.o.Log,
		Limits: w.o.Extension, Online: online}), "extension")
	d.extension = extconn.Client{Root: d.sys.Root, PID: d.ext, Flag: online}
	return err
}

// egress builds the URL rules and the guard. A mode that serves its own
// origins (the simulated site) has them added to the owner's preview
// origins: the rules themselves are the production ones.
func (w *wiring) egress() (err error) {
	c := w.cfg.Egress
	c.PreviewOrigins = append(append([]string(nil), c.PreviewOrigins...), w.modes.ServedOrigins()...)
	c.Self = append(append([]string(nil), c.Self...), w.d.addr)
	c.Logger = w.o.Log
	if c.Known == nil {
		c.Known = egress.NewKnown()
	}
	// The secrets the owner gave buddi: no URL the browser opens may carry one.
	w.d.vault = secret.NewVault(w.cfg.DataDir)
	if err := w.d.vault.Watch(); err != nil { // every act then reads the file's state
		w.o.Log.Debug("the secrets file is not watched", "err", err)
	}
	w.secrets = &ownerSecrets{vault: w.d.vault, known: c.Known, fixed: []string{w.o.Config.TelegramToken}}
	c.Known.SetOwner(append([]string{w.o.Config.TelegramToken}, w.secrets.Values()...))
	w.d.egress, err = egress.NewLive(c)
	return err
}

// buildSettings holds the owner's settings over the modes, and turns air-gap on
// or off as they say (wiping the saved logins when it was turned on).
func (w *wiring) buildSettings() error {
	d := w.d
	air := settings.AirGap{
		Recorded: func() (bool, error) { r, err := d.store.AirGap(); return r.On, err },
		Record: func(on bool, sites []string) error {
			return ledger.Check(ledger.Request(d.sys.Root, d.ledger, &ledger.Write{Owner: true, Ops: []ledger.Op{
				ledger.Put(ledger.AirGapKey(), ledger.AirGap{On: on, At: time.Now(), Sites: sites})}}, 10*time.Second).Result())
		},
		Wipe:  w.wipe,
		Rules: d.egress.SetAirGap,
		Say:   func(line string) { w.notes = append(w.notes, line) },
		Log:   w.o.Log,
	}
	w.settings = settings.New(settings.Config{Config: w.o.Config, File: w.file, Modes: w.modes, AirGap: air.Set})
	return air.Set(w.cfg.Egress.AirGap)
}

// cluster joins etcd with --cluster (nothing on one host): the member
// (cluster/member) is all a cluster adds, and the daemon only starts it.
func (w *wiring) cluster() (err error) {
	if w.d.member, err = member.Open(w.cfg, w.d.addr, w.o.Log); err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	return nil
}

// stop starts the one owner of the Stop at the root, beside the ledger, so
// that it outlives the controller's restarts; it persists through the
// ledger and, in a cluster, etcd.
func (w *wiring) stop() (err error) {
	d := w.d
	if w.stops, err = stop.Open(d.store, d.member != nil); err != nil {
		return err
	}
	return d.spawn(&d.stop, stop.Props(stop.Config{Board: w.stops, Ledger: d.ledger, Shared: d.member.SharedStop(),
		Bus: w.bus, Log: w.o.Log}), "stop")
}

// controller starts the controller and the actors' client over it.
func (w *wiring) controller() error {
	d, o := w.d, w.o
	agentProfiles := w.cfg.Profiles == config.ProfilesAgent
	if _, ok := drivers.AgentProfilesOf(w.modes); agentProfiles && !ok {
		return fmt.Errorf("daemon: the %s mode has no profile per agent; unset BUDDI_BROWSER_PROFILES", w.modes.Name())
	}
	err := d.spawn(&d.ctl, controller.Props(controller.Config{
		Store: d.store, Ledger: d.ledger, Mode: w.modes, Policy: d.egress, Reach: w.reach, Secrets: w.secrets,
		AskSites: w.cfg.SiteApproval == "ask", AgentProfiles: agentProfiles, Routes: w.routes, Bus: w.bus, Limits: w.limits,
		Settings: w.settings, Log: o.Log, Chaos: o.Chaos, Restarts: &d.Restarts, Work: d.work, Acts: w.metrics(), Hand: o.hand,
		Stops: w.stops, Stop: d.stop, Agents: d.member.SharedAgents(), Sites: d.member.SharedSites(),
		Membership: d.member.Membership(), Retention: w.cfg.Retention,
	}), "controller")
	if err != nil {
		return err
	}
	d.gateway = gateway.New(d.sys, d.ctl, d.stop, w.routes, w.bus).WithExtension(d.ext)
	return nil
}

// follow keeps the desktop lock in step with the owner's Stop (and, where
// Use my apps is offered, with take-overs), and joins the cluster.
func (w *wiring) follow() error {
	d := w.d
	ctx, cancel := context.WithCancel(context.Background())
	wait := desktop.Follow(ctx, w.bus, d.sys.Root, d.desk, w.stops.Load().Stop.Stopped, w.modes.Offers(native.Name))
	d.unfollow = func() { cancel(); wait() }
	if d.member == nil {
		return nil
	}
	err := d.member.Join(member.Parts{Store: d.store, Routes: w.routes, Bus: w.bus, Gateway: d.gateway,
		Root: d.sys.Root, Controller: d.ctl, Stop: d.stop, Stops: w.stops})
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	return nil
}

// serve starts the HTTP surface and, with a token, the Telegram bot, and
// records the instance for the CLI.
func (w *wiring) serve() (err error) {
	d, o := w.d, w.o
	ln := d.ln
	d.ln = nil // the server owns it from here, or it is closed
	d.limiter = limit.New(limit.Config{Local: []string{telegram.LimitPrefix, ui.SignInLimitPrefix, ui.OwnerLimitPrefix}})
	ao := o.Audit
	if ao.Log == nil {
		ao.Log = o.Log
	}
	if d.audit, err = audit.Open(o.Config.DataDir, ao); err != nil {
		_ = ln.Close()
		return fmt.Errorf("daemon: %w", err)
	}
	// Every surface calls the actors through the trail, which records each
	// act and control once, where it enters.
	actors := audit.Wrap(w.actors(), d.audit, w.routes)
	if c := o.Config; c.TelegramToken != "" {
		d.telegram, err = telegram.New(telegram.Config{
			Token: c.TelegramToken, API: c.TelegramAPI, Actors: audit.Wrap(d.gateway, d.audit, w.routes), Pages: d.egress,
			Mode: w.modes.Name, AppListed: func(id string) bool { return w.settings.Apps().Allows(id) },
			PublicOrigin: c.PublicOrigin, Addr: d.addr, Tailnet: d.tailnetURL, Limiter: d.limiter, Record: d.audit.Add,
			Log: o.Log, Clock: o.TelegramClock, Tuning: o.Telegram,
		})
		if err != nil {
			_ = ln.Close()
			return fmt.Errorf("daemon: %w", err)
		}
	}
	uc := ui.Config{Actors: actors, OwnerHash: w.hash, Version: o.Version, Started: time.Now(), Log: o.Log,
		AccessLog: o.AccessLog, Addr: d.addr, PublicOrigin: o.Config.PublicOrigin, Reach: w.reach,
		Metrics: w.registry, Limiter: d.limiter, Doctor: w.doctor, ExtensionIDs: extension.Accepted(),
		Audit: w.readAudit, Secrets: w.secrets, Record: d.audit.Add}
	if d.telegram != nil {
		uc.Telegram = d.telegram
	}
	var tln net.Listener
	if d.node != nil {
		uc.Tailnet = d.node
		if tln, err = d.node.Listen(); err != nil {
			_ = ln.Close()
			return fmt.Errorf("daemon: listen on the tailnet: %w", err)
		}
	}
	if d.http, err = ui.New(uc); err != nil {
		_ = ln.Close()
		if tln != nil {
			_ = tln.Close()
		}
		return fmt.Errorf("daemon: %w", err)
	}
	d.http.Serve(ln)
	if tln != nil {
		d.http.ServeTailnet(tln)
	}
	if d.telegram != nil {
		d.telegram.Start()
	}
	if err := d.lock.Record(instance.Instance{PID: os.Getpid(), Addr: d.addr, Started: time.Now()}); err != nil {
		return fmt.Errorf("daemon: record the instance: %w", err)
	}
	w.announce()
	return nil
}

// actors is what the surfaces call: the actors' client, or in a cluster
// the member's, which sends a conversation's calls to its grain.
func (w *wiring) actors() ui.Actors {
	if w.d.member == nil {
		return w.d.gateway
	}
	return w.d.member.Actors()
}

// readAudit reads the audit trail once the lines added before the read
// are written: the owner sees the act just answered.
func (w *wiring) readAudit(ctx context.Context, f messages.AuditFilter) (messages.AuditList, error) {
	if err := w.d.audit.Flush(ctx); err != nil {
		return nil, err
	}
	return audit.Read(w.o.Config.DataDir, f)
}

// doctor is `buddi doctor` as this running buddi sees itself, for the
// dashboard's settings: the store is the one it holds.
func (w *wiring) doctor(ctx context.Context) messages.DoctorRows {
	c := w.settings.Config()
	return doctor.Within(ctx, c, doctor.Options{TokenFile: instance.OwnerTokenFile,
		InUse: func() (string, int, bool) { return w.d.addr, os.Getpid(), true },
		Computer: func(ctx context.Context) messages.Permissions {
			return native.PermissionsOf(ctx, c.ComputerHelper, false)
		},
		Running: func() (*messages.BrowserLaunch, bool) { return drivers.LaunchOf(w.modes), true }})
}

// reach is what agents are told the browser may open; an air-gap the
// environment set says so, since only a restart lifts it.
func (w *wiring) reach() *messages.Reach {
	r := w.d.egress.Reach()
	r.AirGapByEnv = r.AirGap && settings.AirGapByEnv(w.o.Config)
	return r
}

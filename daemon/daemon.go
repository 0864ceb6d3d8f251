package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/extconn"
	"github.com/buddi-dev/buddi/actors/gateway"
	"github.com/buddi-dev/buddi/actors/hand"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/limits"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/cluster/grains"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/metrics"
	"github.com/buddi-dev/buddi/ui"
	"github.com/buddi-dev/buddi/ui/limit"
	"github.com/buddi-dev/buddi/ui/telegram"
)

// Options start a daemon. Mode, when set, replaces the mode the
// configuration chooses (tests and the load test pass a sim mode).
type Options struct {
	Config  config.Config
	Log     *slog.Logger
	Version string
	Out     io.Writer // where the sign-in line goes; nil for none
	// Terminal says Out is a terminal: only then is the one-time sign-in
	// link printed, since anything else (journald, a container's log)
	// keeps it where others may read it within its 15 minutes.
	Terminal  bool
	Mode      drivers.Mode
	Chaos     func() bool
	AccessLog bool
	// Telegram tunes the Telegram bot's timing, and TelegramClock replaces
	// its clock (tests count calls against a clock they advance).
	Telegram      telegram.Tuning
	TelegramClock telegram.Clock
	// DesktopLease replaces the desktop lock's lease in Use my apps (tests
	// shorten it); 0 keeps the hour.
	DesktopLease time.Duration
	// Hand shapes the remote hands (its limits and the pacer's); the zero
	// value takes the specification's.
	Hand hand.Config
	// Extension shapes the extension connection's rules (tests shorten
	// the minute a command may take); zero limits take the specification's.
	Extension extconn.Limits
	// ExtensionDir is where the unpacked extension is; "" looks next to
	// buddi's program (<install root>/extension).
	ExtensionDir string
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

// Daemon is one running buddi.
type Daemon struct {
	opts       Options
	cfg        config.Config // the configuration with settings.json's settings
	lock       *lock
	store      *ledger.Store
	sys        *actor.ActorSystem
	ledger     *actor.PID
	desk       *actor.PID         // the desktop lock of Use my apps
	ext        *actor.PID         // the extension connection of Your browser
	extOnline  atomic.Bool        // an extension is connected and proven now
	unfollow   context.CancelFunc // ends forwarding the Stop to the desktop lock
	controller *actor.PID
	mode       *modeRoot
	settings   *settings
	egress     *egressParts
	routes     *routes.Table
	bus        *events.Bus
	gateway    *gateway.Gateway
	metrics    *metrics.Registry
	limiter    *limit.Limiter
	limits     *limits.Agents // the agents' rates, shared by the controller, its sessions and the browser's refusals
	telegram   *telegram.Bot
	http       *ui.Server
	ln         net.Listener
	addr       string
	shared     *shared.Store      // the cluster's etcd (--cluster); nil on one host
	hands      remoteHands        // halves of hands across members (cluster)
	clusterTLS *shared.TLS        // the cluster's TLS (BUDDI_CLUSTER_CA…); nil in the clear
	unwatch    context.CancelFunc // ends the watch of the cluster's Stop
	memberID   string             // this member's id in the cluster
	grains     *grains.Member     // the conversations' grains (--cluster)
	relay      *relay             // tells the other members this one's events (--cluster)
	notes      []string           // lines for the owner, said once serving is
	Restarts   atomic.Int64
}

// Start brings a daemon up, or undoes what it did and says why.
func Start(o Options) (_ *Daemon, err error) {
	d := &Daemon{opts: o}
	defer func() {
		if err != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_ = d.Shutdown(ctx)
		}
	}()
	dir := o.Config.DataDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("daemon: create the data directory %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("daemon: restrict the data directory %s: %w", dir, err)
	}
	if d.lock, err = acquire(dir); err != nil {
		return nil, err
	}
	if d.store, err = ledger.Open(ledger.Path(dir)); err != nil {
		return nil, err
	}
	d.sys = actors.NewSystem(o.Log)
	d.ledger, err = d.sys.Root.SpawnNamed(ledger.Props(d.store, o.Log), "ledger")
	if err != nil {
		return nil, fmt.Errorf("daemon: start the ledger: %w", err)
	}
	return d, d.startRest()
}

func (d *Daemon) startRest() error {
	o := d.opts
	hash, created, err := ensureOwner(d.sys, d.ledger, d.store, o.Config.DataDir)
	if err != nil {
		return err
	}
	file, err := readSettings(o.Config.DataDir)
	if err != nil {
		return err
	}
	d.cfg = withFile(o.Config, file)
	if err := d.startDesktop(); err != nil {
		return err
	}
	if d.mode, err = d.buildModes(d.cfg, file.Mode); err != nil {
		return err
	}
	d.settings = &settings{d: d, cfg: d.cfg, file: file}
	if err := o.Config.CheckServeAddr(); err != nil {
		return err
	}
	// buddi listens before the URL rules are built: its own address is
	// never a page the browser may open.
	if d.ln, err = net.Listen("tcp", o.Config.Addr); err != nil {
		return fmt.Errorf("daemon: listen on %s: %w; choose another --addr", o.Config.Addr, err)
	}
	d.addr = d.ln.Addr().String()
	if d.egress, err = startEgress(d.cfg.Egress, d.mode, o, d.addr); err != nil {
		return err
	}
	if err := d.applyAirGap(d.egress.cfg.AirGap); err != nil {
		return err
	}
	if err := d.openCluster(); err != nil {
		return err
	}
	if err := d.startActors(); err != nil {
		return err
	}
	if err := d.watchCluster(); err != nil {
		return err
	}
	if err := d.serve(hash, created); err != nil {
		return err
	}
	d.sayNotes()
	d.firstRun()
	return nil
}

func (d *Daemon) startActors() error {
	o := d.opts
	agentProfiles := d.cfg.Profiles == config.ProfilesAgent
	if _, ok := drivers.AgentProfilesOf(d.mode); agentProfiles && !ok {
		return fmt.Errorf("daemon: the %s mode has no profile per agent; unset BUDDI_BROWSER_PROFILES", d.mode.Name())
	}
	d.routes = routes.New()
	d.limits = limits.New(nil)
	d.bus = events.New()
	acts := d.startMetrics()
	var err error
	d.controller, err = d.sys.Root.SpawnNamed(controller.Props(controller.Config{
		Store: d.store, Ledger: d.ledger, Mode: d.mode, Policy: d.egress.policy, Reach: d.egress.reach,
		AskSites: d.cfg.SiteApproval == "ask", AgentProfiles: agentProfiles, Routes: d.routes, Bus: d.bus,
		Settings: d.settings, Log: o.Log, Chaos: o.Chaos, Restarts: &d.Restarts, Acts: acts, Hand: o.hand,
		Shared: d.sharedStop(), Agents: d.sharedAgents(), Sites: d.sharedSites(), Membership: d.membership(),
		Limits: d.limits,
	}), "controller")
	if err != nil {
		return fmt.Errorf("daemon: start the controller: %w", err)
	}
	d.ext, err = d.sys.Root.SpawnNamed(extconn.Props(extconn.Config{Dir: o.Config.DataDir,
		Name: "buddi " + o.Version + " at " + d.addr, Folder: o.extensionFolder(), Log: o.Log,
		Limits: o.Extension, Online: &d.extOnline}), "extension")
	if err != nil {
		return fmt.Errorf("daemon: start the extension connection: %w", err)
	}
	d.gateway = gateway.New(d.sys, d.controller, d.routes, d.bus).WithExtension(d.ext)
	var follow context.Context
	follow, d.unfollow = context.WithCancel(context.Background())
	d.followStop(follow)
	return nil
}

func (d *Daemon) serve(hash string, created bool) error {
	o := d.opts
	ln := d.ln
	d.ln = nil // the server owns it now
	var err error
	d.limiter = limit.New(limit.Config{Local: []string{telegram.LimitPrefix, ui.SignInLimitPrefix, ui.OwnerLimitPrefix}})
	if d.telegram, err = d.newTelegram(); err != nil {
		_ = ln.Close()
		return err
	}
	uc := ui.Config{Actors: d.actors(), OwnerHash: hash,
		Version: o.Version, Started: time.Now(), Log: o.Log, AccessLog: o.AccessLog,
		Addr: d.addr, PublicOrigin: o.Config.PublicOrigin, Reach: d.egress.reach,
		Metrics: d.metrics, Limiter: d.limiter, Doctor: d.doctor, ExtensionIDs: extension.Accepted()}
	if d.telegram != nil {
		uc.Telegram = d.telegram
	}
	d.http, err = ui.New(uc)
	if err != nil {
		_ = ln.Close()
		return fmt.Errorf("daemon: %w", err)
	}
	d.http.Serve(ln)
	if d.telegram != nil {
		d.telegram.Start()
	}
	if err := d.lock.record(Instance{PID: os.Getpid(), Addr: d.addr, Started: time.Now()}); err != nil {
		return fmt.Errorf("daemon: record the instance: %w", err)
	}
	d.announce(created)
	return nil
}

func (d *Daemon) announce(created bool) {
	if d.opts.Out == nil {
		return
	}
	path := d.opts.Config.DataDir + "/" + OwnerTokenFile
	if created {
		fmt.Fprintf(d.opts.Out, "buddi is serving at http://%s. A new owner token was written to %s (owner-only); the CLI reads it from there.\n", d.addr, path)
	} else {
		fmt.Fprintf(d.opts.Out, "buddi is serving at http://%s; the owner token is in %s.\n", d.addr, path)
	}
	if !d.opts.Terminal {
		fmt.Fprintln(d.opts.Out, "To sign in to the dashboard, run `buddi open` on this computer: it prints a one-time link (not printed here, where logs may keep it).")
		return
	}
	link := d.http.SignInLink()
	fmt.Fprintf(d.opts.Out, "Sign in to the dashboard: %s\n(the link works once, for %d minutes; `buddi open` prints a new one)\n",
		link.URL, int(time.Until(link.Expires).Round(time.Minute).Minutes()))
}

// SignInLink makes a one-time link that signs a browser in to the dashboard.
func (d *Daemon) SignInLink() messages.SignInLink { return d.http.SignInLink() }

// Limiter is the limiter of failed sign-ins that pairing shares.
func (d *Daemon) Limiter() *limit.Limiter { return d.limiter }

// sayNotes says the lines gathered while starting.
func (d *Daemon) sayNotes() {
	for _, n := range d.notes {
		d.say(n)
	}
}

// Addr is the address the HTTP surface listens on.
func (d *Daemon) Addr() string { return d.addr }

// Actors is the actors' client: what in-process tests and surfaces call
// and subscribe through.
func (d *Daemon) Actors() *gateway.Gateway { return d.gateway }

// Store is the ledger's store, for tests that stall it (BeforeCommit).
func (d *Daemon) Store() *ledger.Store { return d.store }

// Shutdown stops everything in reverse dependency order: the HTTP surface,
// the controller (its sessions, then the browsers), egress, the ledger, the
// store. It returns when done or when ctx ends, whichever is first; what is
// left then goes on stopping in the background, and the store stays open
// under a ledger that has not stopped.
func (d *Daemon) Shutdown(ctx context.Context) error {
	var errs []error
	errs = append(errs, d.closeTelegram(ctx))
	if d.ln != nil { // listening, not serving yet
		errs = append(errs, d.ln.Close())
	}
	if d.http != nil {
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		errs = append(errs, d.http.Shutdown(c))
		cancel()
	}
	d.stopGrains()
	errs = append(errs, d.closeCluster())
	if d.ext != nil {
		errs = append(errs, stopActor(ctx, d.sys, d.ext))
	}
	if d.controller != nil {
		errs = append(errs, stopActor(ctx, d.sys, d.controller))
	}
	if d.egress != nil {
		errs = append(errs, d.egress.close())
	}
	if d.unfollow != nil {
		d.unfollow()
	}
	if d.desk != nil {
		errs = append(errs, stopActor(ctx, d.sys, d.desk))
	}
	ledgerDown := true
	if d.ledger != nil {
		err := stopActor(ctx, d.sys, d.ledger)
		ledgerDown = err == nil
		errs = append(errs, err)
	}
	if d.sys != nil && ctx.Err() == nil {
		d.sys.Shutdown()
	}
	if d.store != nil && ledgerDown {
		errs = append(errs, d.store.Close())
	}
	if d.lock != nil {
		d.lock.release()
	}
	return errors.Join(errs...)
}

// stopActor drains pid's mailbox and stops it, waiting until ctx ends.
func stopActor(ctx context.Context, sys *actor.ActorSystem, pid *actor.PID) error {
	f := sys.Root.PoisonFuture(pid)
	done := make(chan error, 1)
	go func() { done <- f.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("daemon: stopping %s: %w", pid.Id, err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("daemon: %s did not stop in time: %w", pid.Id, ctx.Err())
	}
}

// Extension is the extension connection, for the browser driver of Your
// browser (extconn.Call) and tests.
func (d *Daemon) Extension() *actor.PID { return d.ext }

// System is the actor system, for the load harness's warm-up of its registry.
func (d *Daemon) System() *actor.ActorSystem { return d.sys }

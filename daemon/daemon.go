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
	"github.com/buddi-dev/buddi/actors/gateway"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/ui"
	"github.com/buddi-dev/buddi/ui/limiter"
	"github.com/buddi-dev/buddi/ui/telegram"
)

// Options start a daemon. Mode, when set, replaces the mode the
// configuration chooses (tests and the load test pass a sim mode).
type Options struct {
	Config    config.Config
	Log       *slog.Logger
	Version   string
	Out       io.Writer // where the sign-in line goes; nil for none
	Mode      drivers.Mode
	Chaos     func() bool
	AccessLog bool
	// Telegram tunes the Telegram bot's timing, and TelegramClock replaces
	// its clock (tests count calls against a clock they advance).
	Telegram      telegram.Tuning
	TelegramClock telegram.Clock
}

// Daemon is one running buddi.
type Daemon struct {
	opts       Options
	lock       *lock
	store      *ledger.Store
	sys        *actor.ActorSystem
	ledger     *actor.PID
	controller *actor.PID
	mode       drivers.Mode
	egress     *egressParts
	bus        *events.Bus
	gateway    *gateway.Gateway
	routes     *routes.Table
	http       *ui.Server
	telegram   *telegram.Bot
	limiter    *limiter.Limiter
	ln         net.Listener
	addr       string
	notes      []string // lines for the owner, said once serving is
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
	if d.mode = o.Mode; d.mode == nil {
		if d.mode, err = d.chooseMode(o.Config); err != nil {
			return err
		}
	}
	if err := o.Config.CheckServeAddr(); err != nil {
		return err
	}
	// buddi listens before the URL rules are built: its own address is
	// never a page the browser may open.
	if d.ln, err = net.Listen("tcp", o.Config.Addr); err != nil {
		return fmt.Errorf("daemon: listen on %s: %w; choose another --addr", o.Config.Addr, err)
	}
	d.addr = d.ln.Addr().String()
	if d.egress, err = startEgress(o.Config.Egress, d.mode, o, d.addr); err != nil {
		return err
	}
	if err := d.applyAirGap(d.egress.cfg.AirGap); err != nil {
		return err
	}
	if err := d.startActors(); err != nil {
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
	table, err := routes.New(), error(nil)
	agentProfiles := o.Config.Profiles == config.ProfilesAgent
	if _, ok := drivers.AgentProfilesOf(d.mode); agentProfiles && !ok {
		return fmt.Errorf("daemon: the %s mode has no profile per agent; unset BUDDI_BROWSER_PROFILES", d.mode.Name())
	}
	d.routes = table
	d.bus = events.New()
	d.controller, err = d.sys.Root.SpawnNamed(controller.Props(controller.Config{
		Store: d.store, Ledger: d.ledger, Mode: d.mode, Policy: d.egress.policy, Reach: d.egress.reach(),
		AskSites: o.Config.SiteApproval == "ask", AgentProfiles: agentProfiles, Routes: table, Bus: d.bus,
		Log: o.Log, Chaos: o.Chaos, Restarts: &d.Restarts,
	}), "controller")
	if err != nil {
		return fmt.Errorf("daemon: start the controller: %w", err)
	}
	d.gateway = gateway.New(d.sys, d.controller, table, d.bus)
	return nil
}

func (d *Daemon) serve(hash string, created bool) error {
	o := d.opts
	ln := d.ln
	d.ln = nil // the server owns it now
	var err error
	d.limiter = limiter.New(0, 0, nil)
	if d.telegram, err = d.newTelegram(); err != nil {
		_ = ln.Close()
		return err
	}
	uc := ui.Config{Actors: d.gateway, OwnerHash: hash,
		Version: o.Version, Started: time.Now(), Log: o.Log, AccessLog: o.AccessLog,
		Addr: d.addr, PublicOrigin: o.Config.PublicOrigin, Reach: d.egress.reach()}
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
		return
	}
	fmt.Fprintf(d.opts.Out, "buddi is serving at http://%s; the owner token is in %s.\n", d.addr, path)
}

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
	if d.controller != nil {
		errs = append(errs, stopActor(ctx, d.sys, d.controller))
	}
	if d.egress != nil {
		errs = append(errs, d.egress.close())
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

// System is the actor system, for the load harness's warm-up of its registry.
func (d *Daemon) System() *actor.ActorSystem { return d.sys }

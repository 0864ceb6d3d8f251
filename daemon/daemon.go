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
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/ui"
)

// Options start a daemon. Profile and MaxProfiles, when set, replace the
// driver chosen by the configuration (tests and the load test use them).
type Options struct {
	Config      config.Config
	Log         *slog.Logger
	Version     string
	Out         io.Writer // where the sign-in line goes; nil for none
	Profile     func(i int) (drivers.Driver, error)
	MaxProfiles int
	Chaos       func() bool
	AccessLog   bool
}

// Daemon is one running buddi.
type Daemon struct {
	opts       Options
	lock       *lock
	store      *ledger.Store
	sys        *actor.ActorSystem
	ledger     *actor.PID
	controller *actor.PID
	egress     *egressParts
	http       *ui.Server
	addr       string
	Restarts   atomic.Int64
}

// Start brings a daemon up, or undoes what it did and says why.
func Start(o Options) (_ *Daemon, err error) {
	d := &Daemon{opts: o}
	defer func() {
		if err != nil {
			_ = d.Shutdown(context.Background())
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
	d.ledger, err = d.sys.Root.SpawnNamed(actor.PropsFromProducer(func() actor.Actor {
		return ledger.NewActor(d.store, o.Log)
	}), "ledger")
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
	if d.egress, err = startEgress(o); err != nil {
		return err
	}
	if err := d.applyAirGap(d.egress.cfg.AirGap); err != nil {
		return err
	}
	profile, maxProfiles, browser, err := d.drivers()
	if err != nil {
		return err
	}
	d.controller, err = d.sys.Root.SpawnNamed(controller.Props(controller.Config{
		Store: d.store, Ledger: d.ledger, Profile: profile, MaxProfiles: maxProfiles,
		Browser: browser, Mode: "playwright", Policy: d.egress.policy, Log: o.Log,
		Chaos: o.Chaos, Restarts: &d.Restarts, AskSites: o.Config.SiteApproval == "ask",
	}), "controller")
	if err != nil {
		return fmt.Errorf("daemon: start the controller: %w", err)
	}
	ln, err := net.Listen("tcp", o.Config.Addr)
	if err != nil {
		return fmt.Errorf("daemon: listen on %s: %w; choose another --addr", o.Config.Addr, err)
	}
	d.addr = ln.Addr().String()
	d.http, err = ui.New(ui.Config{System: d.sys, Controller: d.controller, OwnerHash: hash,
		Version: o.Version, Started: time.Now(), Log: o.Log, AccessLog: o.AccessLog,
		Addr: d.addr, PublicOrigin: o.Config.PublicOrigin})
	if err != nil {
		_ = ln.Close()
		return fmt.Errorf("daemon: %w", err)
	}
	d.http.Serve(ln)
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

// Addr is the address the HTTP surface listens on.
func (d *Daemon) Addr() string { return d.addr }

// System and Controller expose the actor system to in-process tests.
func (d *Daemon) System() *actor.ActorSystem { return d.sys }

// Controller is the controller's PID.
func (d *Daemon) Controller() *actor.PID { return d.controller }

// Shutdown stops everything in reverse dependency order within ctx.
func (d *Daemon) Shutdown(ctx context.Context) error {
	var errs []error
	if d.http != nil {
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		errs = append(errs, d.http.Shutdown(c))
		cancel()
	}
	if d.controller != nil {
		errs = append(errs, stopActor(d.sys, d.controller))
	}
	if d.egress != nil {
		errs = append(errs, d.egress.close())
	}
	if d.ledger != nil {
		errs = append(errs, stopActor(d.sys, d.ledger))
	}
	if d.sys != nil {
		d.sys.Shutdown()
	}
	if d.store != nil {
		errs = append(errs, d.store.Close())
	}
	if d.lock != nil {
		d.lock.release()
	}
	return errors.Join(errs...)
}

// stopActor drains pid's mailbox and stops it, waiting up to protoactor's
// ten seconds; a timeout is reported, not fatal.
func stopActor(sys *actor.ActorSystem, pid *actor.PID) error {
	if err := sys.Root.PoisonFuture(pid).Wait(); err != nil {
		return fmt.Errorf("daemon: stopping %s: %w", pid.Id, err)
	}
	return nil
}

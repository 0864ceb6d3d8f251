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
	"github.com/buddi-dev/buddi/actors/extconn"
	"github.com/buddi-dev/buddi/actors/gateway"
	"github.com/buddi-dev/buddi/actors/hand"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/actors/session"
	"github.com/buddi-dev/buddi/cluster/member"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
	"github.com/buddi-dev/buddi/ui"
	"github.com/buddi-dev/buddi/ui/audit"
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
	// Audit bounds the audit trail (a file's size, the rotated files
	// kept); the zero value takes 8 MiB and four.
	Audit audit.Options
	// TailnetEphemeral makes the tailnet node one the tailnet forgets
	// once it goes offline (tests).
	TailnetEphemeral bool
}

// Daemon is one running buddi: the handles Shutdown closes, in reverse of
// the order Start made them, and what tests and the load test reach.
type Daemon struct {
	opts      Options
	lock      *instance.Lock
	store     *ledger.Store
	sys       *actor.ActorSystem
	ledger    *actor.PID
	stop      *actor.PID // the owner's Stop, beside the ledger
	desk      *actor.PID // the desktop lock of Use my apps
	ext       *actor.PID // the extension connection of Your browser
	extension extconn.Client
	ctl       *actor.PID    // the controller
	work      *session.Work // what the sessions run off their mailboxes
	egress    *egress.Live
	unfollow  func()       // ends the desktop lock's following of the Stop
	member    *member.Self // with --cluster
	gateway   *gateway.Gateway
	limiter   *limit.Limiter
	audit     *audit.Log    // the audit trail, closed after the surfaces
	vault     *secret.Vault // the owner's secrets, whose file it watches
	telegram  *telegram.Bot
	http      *ui.Server
	ln        net.Listener // listening, not serving yet
	node      node         // buddi's tailnet node; nil when off
	addr      string
	Restarts  atomic.Int64
}

// Start brings a daemon up, or undoes what it did and says why.
func Start(o Options) (_ *Daemon, err error) {
	d := &Daemon{opts: o, work: session.NewWork()}
	defer func() {
		if err != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_ = d.Shutdown(ctx)
		}
	}()
	if err := d.open(); err != nil {
		return nil, err
	}
	w := &wiring{d: d, o: o}
	for _, step := range []func() error{w.owner, w.listen, w.desktop, w.extension, w.buildModes, w.egress,
		w.buildSettings, w.cluster, w.stop, w.controller, w.follow, w.tailnet, w.serve} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	w.sayNotes()
	w.firstRun()
	w.warm()
	return d, nil
}

// open makes the data directory owner-only, takes its lock, opens the store
// and starts the actor system with the ledger.
func (d *Daemon) open() error {
	dir := d.opts.Config.DataDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("daemon: create the data directory %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("daemon: restrict the data directory %s: %w", dir, err)
	}
	var err error
	if d.lock, err = instance.Acquire(dir); err != nil {
		return err
	}
	if d.store, err = ledger.Open(ledger.Path(dir)); err != nil {
		return err
	}
	d.sys = actors.NewSystem(d.opts.Log)
	return d.spawn(&d.ledger, ledger.Props(d.store, d.opts.Log, ledger.Retention{Keep: d.opts.Config.Retention}), "ledger")
}

// spawn starts an actor at the root under name, into pid.
func (d *Daemon) spawn(pid **actor.PID, props *actor.Props, name string) error {
	p, err := d.sys.Root.SpawnNamed(props, name)
	if err != nil {
		return fmt.Errorf("daemon: start the %s: %w", name, err)
	}
	*pid = p
	return nil
}

// Shutdown stops everything in reverse dependency order: the surfaces
// (Telegram, then HTTP), the cluster, the extension connection, the
// controller (its sessions, then the browsers), the Stop's actor, egress,
// the desktop lock, the ledger, the store. It returns when done or when ctx ends, whichever
// is first; what is left then goes on stopping in the background, and the
// store stays open under a ledger that has not stopped.
func (d *Daemon) Shutdown(ctx context.Context) error {
	var errs []error
	if d.telegram != nil {
		errs = append(errs, d.telegram.Close(ctx))
	}
	if d.ln != nil {
		errs = append(errs, d.ln.Close())
	}
	if d.http != nil {
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		errs = append(errs, d.http.Shutdown(c))
		cancel()
	}
	if d.node != nil {
		errs = append(errs, d.node.Close())
	}
	if d.audit != nil {
		errs = append(errs, d.audit.Close()) // no surface adds a line now
	}
	errs = append(errs, d.member.Close())
	errs = append(errs, d.halt(ctx, d.ext))
	if err := d.halt(ctx, d.ctl); err != nil {
		errs = append(errs, err)
	} else {
		// No session is left to start more: wait for what they ran off
		// their mailboxes (an act, the last picture, closing tabs).
		errs = append(errs, d.work.End(ctx))
	}
	errs = append(errs, d.halt(ctx, d.stop))
	if d.egress != nil {
		errs = append(errs, d.egress.Close())
	}
	if d.unfollow != nil {
		d.unfollow()
	}
	errs = append(errs, d.vault.Close()) // no session reads it now
	errs = append(errs, d.halt(ctx, d.desk))
	ledgerDown := true
	if d.ledger != nil {
		err := d.halt(ctx, d.ledger)
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
		d.lock.Release()
	}
	return errors.Join(errs...)
}

// Pictures is how many of the owner's pictures of pages are being taken or
// scaled now.
func (d *Daemon) Pictures() int64 { return d.work.Pictures() }

// AuditWritten is how many act and control lines the audit trail has
// written since Start (zeros before the surfaces started).
func (d *Daemon) AuditWritten() (acts, controls int64) {
	if d.audit == nil {
		return 0, 0
	}
	return d.audit.Written()
}

// halt drains pid's mailbox and stops it, waiting until ctx ends; nothing
// for an actor never started.
func (d *Daemon) halt(ctx context.Context, pid *actor.PID) error {
	if pid == nil {
		return nil
	}
	f := d.sys.Root.PoisonFuture(pid)
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

// Addr is the address the HTTP surface listens on.
func (d *Daemon) Addr() string { return d.addr }

// SignInLink makes a one-time link that signs a browser in to the dashboard.
func (d *Daemon) SignInLink() messages.SignInLink { return d.http.SignInLink() }

// Limiter is the limiter of failed sign-ins that pairing shares.
func (d *Daemon) Limiter() *limit.Limiter { return d.limiter }

// Actors is the actors' client: what in-process tests and surfaces call
// and subscribe through.
func (d *Daemon) Actors() *gateway.Gateway { return d.gateway }

// Store is the ledger's store, for tests that stall it (BeforeCommit).
func (d *Daemon) Store() *ledger.Store { return d.store }

// Telegram is the Telegram bot, nil when none is configured.
func (d *Daemon) Telegram() *telegram.Bot { return d.telegram }

// Extension is the extension connection as Your browser's driver calls
// it, for tests that drive the driver through it.
func (d *Daemon) Extension() extconn.Client { return d.extension }

// System is the actor system, for the load harness's warm-up of its registry.
func (d *Daemon) System() *actor.ActorSystem { return d.sys }

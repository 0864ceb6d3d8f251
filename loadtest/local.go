package loadtest

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/ui/audit"
)

// local is an in-process daemon on a temporary data directory, with one
// simulated driver per browser profile, all reporting input to one hook.
type local struct {
	d     *daemon.Daemon
	dir   string
	trail *AuditReport // what the audit trail held once the daemon stopped

	logs *logCount // nil when the caller gave a log

	mu   sync.Mutex
	sims []*sim.Driver
}

// startLocal starts the daemon the run drives. onInput is the shared input
// hook; warm builds the page templates (one copy, shared by the profiles)
// up front, so memory does not grow as agents find pages.
func startLocal(cfg Config, profiles int, onInput func(string, drivers.Kind), warm bool, pages *pageServer) (*local, error) {
	dir, err := os.MkdirTemp("", "buddi-loadtest-")
	if err != nil {
		return nil, fmt.Errorf("loadtest: a temporary data directory: %w", err)
	}
	l := &local{dir: dir}
	c := cfg.Base
	c.DataDir, c.Addr, c.Driver = dir, "127.0.0.1:0", cfg.Driver
	if c.LogLevel == "" {
		c.LogLevel = "warn"
	}
	if err := c.Validate(); err != nil {
		l.close()
		return nil, err
	}
	log := cfg.Log
	if log == nil {
		l.logs = newLogCount()
		log = slog.New(l.logs)
	}
	o := daemon.Options{Config: c, Log: log, Version: "loadtest", Audit: audit.Options{MaxBytes: cfg.AuditBytes}}
	if cfg.Driver == "sim" {
		mode := sim.NewMode(sim.Config{Pages: cfg.Pages, OnInput: onInput, CastFPS: handFPS, CastBytes: handBytes}, profiles)
		mode.OnOpen = func(d *sim.Driver) {
			if warm {
				warmUp(d, cfg.Pages)
			}
			l.mu.Lock()
			l.sims = append(l.sims, d)
			l.mu.Unlock()
		}
		o.Mode = mode
	}
	if rate := cfg.CrashRate; rate > 0 {
		o.Chaos = func() bool { return rand.Float64() < rate }
	}
	if pages != nil {
		pages.allow(&o.Config)
	}
	if l.d, err = daemon.Start(o); err != nil {
		l.close()
		return nil, err
	}
	warmRegistry(l.d)
	return l, nil
}

// warmRegistry touches every shard of the actor system's process registry
// once. The registry is 1,024 buckets of 32 Go maps, and each map keeps its
// first allocation for good: about 10 MB that otherwise fills in over the
// first few hundred thousand requests and would read as growth per
// conversation.
func warmRegistry(d *daemon.Daemon) {
	for _, bucket := range d.System().ProcessRegistry.LocalPIDs.LocalPIDs {
		for i := range 400 {
			k := "~warm-up-" + strconv.Itoa(i)
			bucket.Set(k, nil)
			bucket.Remove(k)
		}
	}
}

// warmUp visits every page of a simulated driver once, building its
// templates, then forgets the visitor.
func warmUp(d *sim.Driver, pages int) {
	ctx := context.Background()
	tabs, err := d.Open(ctx, "~warm-up")
	if err != nil {
		return
	}
	defer tabs.Close(ctx)
	for i := range pages {
		for _, p := range []string{"/p/", "/form/"} {
			_, _ = tabs.Do(ctx, &drivers.Action{Kind: drivers.Navigate, URL: sim.Origin + p + strconv.Itoa(i)})
		}
	}
	_, _ = tabs.Do(ctx, &drivers.Action{Kind: drivers.Navigate, URL: sim.Origin + "/done"})
}

// templateBytes measures the heap the page templates take: one copy, which
// every profile of the sim mode shares.
func templateBytes(pages int) uint64 {
	before := settledHeap()
	d := sim.New(sim.Config{Pages: pages})
	warmUp(d, pages)
	after := settledHeap()
	runtime.KeepAlive(d)
	return after - min(before, after)
}

func (l *local) base() string { return "http://" + l.d.Addr() }

func (l *local) ownerToken() (string, error) { return instance.ReadOwnerToken(l.dir) }

func (l *local) restarts() int64 { return l.d.Restarts.Load() }

func (l *local) inputs() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var n int64
	for _, d := range l.sims {
		n += d.Stats().Total()
	}
	return n
}

func (l *local) profiles() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.sims)
}

// close shuts the daemon down and removes its data.
func (l *local) close() error {
	var err error
	if l.d != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		err = l.d.Shutdown(ctx)
		cancel()
		l.trail = auditOf(l.dir)
		l.trail.ActsWritten, l.trail.ControlsWritten = l.d.AuditWritten()
	}
	_ = os.RemoveAll(l.dir)
	return err
}

package playwright

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// Driver is the playwright-mode driver: one browser profile, launched on
// first use, shared by every conversation.
type Driver struct {
	cfg Config
	// lastLaunch is the sentence of the latest launch that failed, until
	// one succeeds: browser.status reports it.
	lastLaunch atomic.Pointer[string]

	mu     sync.Mutex
	b      *browser
	convs  map[string]*Tabs
	closed bool
}

var _ drivers.Driver = (*Driver)(nil)

// New validates cfg and returns a Driver. Nothing is launched until Open.
func New(cfg Config) (*Driver, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return &Driver{cfg: cfg, convs: map[string]*Tabs{}}, nil
}

// Status reports what a launch would use, without launching anything.
func (d *Driver) Status(_ context.Context) drivers.Status {
	st := drivers.Status{Driver: "playwright", Headless: d.cfg.headless()}
	// Open holds the lock through a launch (up to a minute); Status is read
	// from actors' mailboxes and must not wait for it: a launch under way
	// reads as not running yet.
	if d.mu.TryLock() {
		st.Running = d.b != nil && !d.b.dead.Load()
		d.mu.Unlock()
	}
	path, err := Find(d.cfg)
	st.Browser, st.Found = path, err == nil
	runner := RunsAs(d.cfg)
	switch {
	case err != nil:
		st.Problem = message(err)
	case d.lastLaunch.Load() != nil && !st.Running:
		st.Problem = *d.lastLaunch.Load()
	case runner.Problem != "":
		st.Problem = runner.Problem
	case !driverInstalled():
		st.Problem = "The Playwright driver is not installed: run `buddi browser install`."
	}
	if _, nerr := nodePath(); nerr != nil && st.Problem == "" {
		st.Problem = errNoNode.Message
	}
	return st
}

// Open returns the conversation's tabs, launching (or relaunching) the
// browser first if needed. A new conversation starts with one blank tab.
func (d *Driver) Open(ctx context.Context, conv string) (drivers.Tabs, error) {
	if conv == "" {
		return nil, badInput("A conversation is required to open tabs.")
	}
	ctx, cancel := withDefault(ctx, 60*time.Second)
	defer cancel()
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.ready(ctx); err != nil {
		return nil, err
	}
	if ts := d.convs[conv]; ts != nil && ts.b == d.b {
		return ts, nil
	}
	ts := newTabs(d, d.b, conv)
	if _, err := ts.openTab(ctx); err != nil {
		return nil, err
	}
	d.convs[conv] = ts
	return ts, nil
}

// ready refuses a closed driver and launches the browser when needed; the
// caller holds d.mu.
func (d *Driver) ready(ctx context.Context) error {
	if d.closed {
		return fail(drivers.CodeNoBrowser, nil, "The browser driver is shut down.")
	}
	return d.ensure(ctx)
}

// ensure launches the browser when there is none or the last one died.
func (d *Driver) ensure(ctx context.Context) error {
	if d.b != nil && !d.b.dead.Load() {
		return nil
	}
	if d.b != nil {
		d.cfg.Logger.Warn("browser died; relaunching")
		d.b.close()
		d.b = nil
		d.convs = map[string]*Tabs{}
	}
	b, err := launch(ctx, &d.cfg)
	if err != nil {
		if ctx.Err() == nil {
			msg := message(err)
			d.lastLaunch.Store(&msg)
		}
		return err
	}
	d.lastLaunch.Store(nil)
	d.b = b
	return nil
}

// drop forgets a closed conversation.
func (d *Driver) drop(ts *Tabs) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.convs[ts.conv] == ts {
		delete(d.convs, ts.conv)
	}
}

// Close ends every conversation and releases the browser: the context is
// closed, the Playwright driver stopped, and the browser's process group
// killed. It is safe to call more than once.
func (d *Driver) Close() error {
	d.mu.Lock()
	b := d.b
	d.closed, d.b = true, nil
	for _, ts := range d.convs {
		ts.mu.Lock()
		ts.closed = true
		ts.mu.Unlock()
	}
	d.convs = map[string]*Tabs{}
	d.mu.Unlock()
	if b != nil {
		b.close()
	}
	return nil
}

// withDefault gives ctx a deadline when it has none.
func withDefault(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

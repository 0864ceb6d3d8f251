package playwright

import (
	"context"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Driver is the playwright-mode driver: one browser profile, started in
// the background (start.go), shared by every conversation.
type Driver struct {
	cfg Config

	mu     sync.Mutex
	b      *browser // the browser now: running, or dead until the next is up
	convs  map[string]*Tabs
	closed bool
	run    *run                   // the launch under way, nil when none
	state  messages.BrowserLaunch // where the browser is in its start
	failed error                  // the latest launch's failure, while state says failed
}

var (
	_ drivers.Driver  = (*Driver)(nil)
	_ drivers.Starter = (*Driver)(nil)
)

// New validates cfg and returns a Driver. Nothing is launched until Start,
// Ready or Open.
func New(cfg Config) (*Driver, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	d := &Driver{cfg: cfg, convs: map[string]*Tabs{}}
	d.state = messages.BrowserLaunch{State: messages.LaunchIdle, Since: time.Now()}
	return d, nil
}

// Status reports what a launch would use and where the browser is in its
// start, without launching anything.
func (d *Driver) Status(_ context.Context) drivers.Status {
	st := drivers.Status{Driver: "playwright", Headless: d.cfg.headless()}
	d.mu.Lock()
	st.Running = d.b != nil && !d.b.dead.Load()
	launch := d.state
	d.mu.Unlock()
	st.Launch = &launch
	path, err := Find(d.cfg)
	st.Browser, st.Found = path, err == nil
	runner := RunsAs(d.cfg)
	switch {
	case err != nil:
		st.Problem = message(err)
	case launch.State == messages.LaunchFailed && !st.Running:
		st.Problem = launch.Problem
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

// Open returns the conversation's tabs, waiting (within ctx) for the
// browser to be ready first. A new conversation starts with one blank tab;
// a conversation whose browser died keeps its tabs, which the next browser
// reopens.
func (d *Driver) Open(ctx context.Context, conv string) (drivers.Tabs, error) {
	if conv == "" {
		return nil, badInput("A conversation is required to open tabs.")
	}
	ctx, cancel := withDefault(ctx, 60*time.Second)
	defer cancel()
	if _, err := d.Ready(ctx); err != nil {
		return nil, err
	}
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil, errShutDown()
	}
	if ts := d.convs[conv]; ts != nil {
		d.mu.Unlock()
		return ts, ts.waitOpened(ctx)
	}
	b := d.b
	if b == nil || b.dead.Load() {
		d.mu.Unlock()
		return nil, fail(drivers.CodeStarting, nil, "The browser stopped as the conversation opened; try again in a few seconds.")
	}
	ts := newTabs(d, b, conv)
	d.convs[conv] = ts
	d.mu.Unlock()
	_, err := ts.openTab(ctx)
	ts.opened(err)
	if err != nil {
		d.drop(ts)
		return nil, err
	}
	return ts, nil
}

// drop forgets a closed conversation.
func (d *Driver) drop(ts *Tabs) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.convs[ts.conv] == ts {
		delete(d.convs, ts.conv)
	}
}

// Close ends every conversation and releases the browser: a launch under
// way is abandoned, the context is closed, the Playwright driver stopped,
// and the browser's process group killed. It is safe to call more than
// once.
func (d *Driver) Close() error {
	d.mu.Lock()
	b, r := d.b, d.run
	d.closed, d.b = true, nil
	convs := d.convs
	d.convs = map[string]*Tabs{}
	d.mu.Unlock()
	for _, ts := range convs {
		ts.shut()
	}
	if r != nil {
		r.cancel()
		select { // the launch closes what it started once it sees d.closed
		case <-r.done:
		case <-time.After(closeWait):
		}
	}
	if b != nil {
		b.close()
	}
	return nil
}

// closeWait bounds how long Close waits for a launch it abandoned.
const closeWait = 15 * time.Second

func errShutDown() error {
	return fail(drivers.CodeNoBrowser, nil, "The browser driver is shut down.")
}

// withDefault gives ctx a deadline when it has none.
func withDefault(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if _, ok := ctx.Deadline(); ok {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

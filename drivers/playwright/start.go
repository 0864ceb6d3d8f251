package playwright

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Bounds of a launch, on an idle machine; a loaded one stretches them
// (load.go).
const (
	// launchTimeout bounds one whole launch (the account, Playwright's
	// driver, Chromium, the gate), up to maxLoad times on a busy machine.
	launchTimeout = 60 * time.Second
	// launchGuess is how long a launch is expected to take before one has
	// finished here, to say when to try again.
	launchGuess = 10 * time.Second
	// retryFailed is how soon after a failed launch an act starts another
	// (a sooner act is told the failure at once).
	retryFailed = 5 * time.Second
)

// run is one launch under way, in the background. done closes once it
// ended and, when it succeeded, the conversations of the browser before
// have their tabs back; err is its failure.
type run struct {
	done    chan struct{}
	cancel  context.CancelFunc
	started time.Time
	load    float64 // the machine's load its bounds were scaled by
	err     error
}

// Start begins starting the browser in the background when it is neither
// running nor starting.
func (d *Driver) Start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.startLocked()
}

// startLocked begins a launch when none runs and no live browser is
// there, and returns the launch under way (nil: the browser is up, or the
// driver closed). The caller holds d.mu.
func (d *Driver) startLocked() *run {
	if d.closed || d.run != nil {
		return d.run
	}
	if d.b != nil && !d.b.dead.Load() {
		return nil
	}
	load := machineLoad()
	ctx, cancel := context.WithTimeout(context.Background(), scaled(launchTimeout, load, maxLoad))
	r := &run{done: make(chan struct{}), cancel: cancel, started: time.Now(), load: load}
	d.run = r
	d.state = messages.BrowserLaunch{State: messages.LaunchStarting, Since: r.started,
		TookMs: d.state.TookMs, Restarts: d.state.Restarts, Load: load}
	go d.launch(ctx, r, d.b)
	return r
}

// Launch says where the browser is in its start.
func (d *Driver) Launch() messages.BrowserLaunch {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.state
}

// Ready waits until the browser is up, starting it when nothing is, and
// says how long it waited. A launch that failed moments ago is answered at
// once; one that failed earlier is tried again.
func (d *Driver) Ready(ctx context.Context) (time.Duration, error) {
	start := time.Now()
	for {
		d.mu.Lock()
		if d.closed {
			d.mu.Unlock()
			return 0, errShutDown()
		}
		if d.run == nil && d.b != nil && !d.b.dead.Load() {
			d.mu.Unlock()
			return time.Since(start), nil
		}
		if d.run == nil && d.state.State == messages.LaunchFailed && time.Since(d.state.Since) < retryFailed {
			err := d.failed
			d.mu.Unlock()
			return time.Since(start), err
		}
		r := d.startLocked()
		d.mu.Unlock()
		if r == nil {
			continue
		}
		select {
		case <-r.done:
			if r.err != nil {
				return time.Since(start), r.err
			}
		case <-ctx.Done():
			if errors.Is(context.Cause(ctx), errInterrupted) {
				return time.Since(start), interrupted()
			}
			return time.Since(start), d.stillStarting()
		}
	}
}

// stillStarting is the answer to an act that waited as long as it may for
// the browser: how long it has been starting and when to try again.
func (d *Driver) stillStarting() error {
	d.mu.Lock()
	st := d.state
	d.mu.Unlock()
	took := time.Duration(st.TookMs) * time.Millisecond
	if took == 0 {
		took = scaled(launchGuess, st.Load, maxLoad)
	}
	elapsed := time.Since(st.Since)
	again := max(5*time.Second, took-elapsed).Round(time.Second)
	busy := ""
	if st.Load >= 1.5 {
		busy = fmt.Sprintf(", on a machine busy with %.0f× its cores' work", st.Load)
	}
	return fail(drivers.CodeStarting, nil, fmt.Sprintf("The browser is still starting (for %d s so far%s); try again in about %d s.",
		int(elapsed.Round(time.Second).Seconds()), busy, int(again.Seconds())))
}

// launch starts a browser in the background, after closing what is left
// of the one before (old, dead; both use the same profile), and gives the
// conversations of that one their tabs back in it.
func (d *Driver) launch(ctx context.Context, r *run, old *browser) {
	defer r.cancel()
	if old != nil {
		old.close()
	}
	b, err := launch(ctx, &d.cfg)
	d.mu.Lock()
	d.run = nil
	if d.closed {
		d.mu.Unlock()
		if b != nil {
			b.close()
		}
		r.err = errShutDown()
		close(r.done)
		return
	}
	now := time.Now()
	if err != nil {
		if ctx.Err() != nil && asDriverError(err) == nil {
			err = fail(drivers.CodeNoBrowser, err, fmt.Sprintf("The browser did not start within %d s; run `buddi doctor` to see why.",
				int(now.Sub(r.started).Seconds())))
		}
		r.err, d.failed = err, err
		d.state.State, d.state.Since, d.state.Problem = messages.LaunchFailed, now, message(err)
		d.mu.Unlock()
		d.cfg.Logger.Warn("the browser did not start", "err", err, "after", now.Sub(r.started).Round(time.Millisecond))
		close(r.done)
		return
	}
	d.b, d.failed = b, nil
	d.state.State, d.state.Since, d.state.Problem = messages.LaunchReady, now, ""
	d.state.TookMs = now.Sub(r.started).Milliseconds()
	var back []*Tabs
	for _, ts := range d.convs {
		if ts.browser() != b {
			back = append(back, ts)
		}
	}
	d.mu.Unlock()
	d.cfg.Logger.Info("browser ready", "took", now.Sub(r.started).Round(time.Millisecond), "load", r.load)
	b.watch(d)
	var wg sync.WaitGroup
	for _, ts := range back {
		wg.Add(1)
		go func() { defer wg.Done(); ts.reopen(b) }()
	}
	wg.Wait()
	close(r.done)
}

// died is told that b is gone (its context closed, its connection broke,
// or it stopped answering): each of its conversations is told once that
// the browser restarted, and a new browser starts, which reopens their
// tabs. A browser is mourned once; the driver's own Close is no death.
// lastWordsAfter is how long after a browser's death its last words are logged.
const lastWordsAfter = time.Second

func (d *Driver) died(b *browser, why string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed || d.b != b || b.mourned {
		return
	}
	b.mourned = true
	// Each conversation has its news before the browser reads as dead: a
	// call that finds it dead with no news says it is still starting, which
	// is not what happened to that conversation.
	for _, ts := range d.convs {
		if ts.browser() == b {
			ts.browserLost()
		}
	}
	b.dead.Store(true)
	d.cfg.Logger.Warn("the browser stopped; starting it again", "why", why)
	// What the browser process said last reaches the driver's stderr on a
	// pipe of its own, after its connection closed: it is logged a moment
	// later.
	time.AfterFunc(lastWordsAfter, func() {
		d.cfg.Logger.Warn("the browser's last words", "driver", b.stderr.lastWords())
	})
	d.state.Restarts++
	d.startLocked()
}

package playwright

import (
	"context"
	"fmt"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// The browser's own check: the watchdog's loop asks the browser a
// question every watchEvery and has it killed and started again when it
// stopped answering, then runs each tab's rules (watchdog.go).

// watch starts the browser's watchdog; it ends when the browser closes or
// dies (and then tells d).
func (b *browser) watch(d *Driver) {
	go func() {
		s := b.pingSession()
		tick := time.NewTicker(watchEvery)
		defer tick.Stop()
		for {
			select {
			case <-b.stop:
				return
			case <-b.gone:
				d.died(b, "its browser closed")
				return
			case <-tick.C:
			}
			load := machineLoad()
			if why := b.checkSelf(s, load); why != "" {
				killProfile(b.profile)
				d.died(b, why)
				return
			}
			for _, t := range d.tabsIn(b) {
				t.check(load)
			}
		}
	}()
}

// pingSession is the browser-level session the watchdog asks the browser
// over: the gate's, or one of its own; nil when none opens.
func (b *browser) pingSession() pw.CDPSession {
	if b.gate != nil {
		return b.gate.s
	}
	br := b.bctx.Browser()
	if br == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), wedgedAfter)
	defer cancel()
	s, err := call(ctx, br.NewBrowserCDPSession)
	if err != nil {
		return nil
	}
	return s
}

// checkSelf asks the browser a question and says why it is to be killed
// and started again, if it is: its connection broke, or it has not
// answered for wedgedAfter.
func (b *browser) checkSelf(s pw.CDPSession, load float64) string {
	if s == nil {
		return ""
	}
	limit := scaled(wedgedAfter, load, wedgedStretch)
	quiet, err := b.ping.silent(time.Now(), 0, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), limit+watchEvery)
		defer cancel()
		_, err := call(ctx, func() (any, error) { return s.Send("Browser.getVersion", nil) })
		return err
	})
	switch {
	case err != nil && isClosed(err):
		return "its connection to buddi broke"
	case quiet > limit:
		return fmt.Sprintf("it did not answer for %d s", int(quiet.Seconds()))
	}
	return ""
}

// tabsIn lists the tabs every conversation has in b.
func (d *Driver) tabsIn(b *browser) []*tab {
	d.mu.Lock()
	convs := make([]*Tabs, 0, len(d.convs))
	for _, ts := range d.convs {
		convs = append(convs, ts)
	}
	d.mu.Unlock()
	var out []*tab
	for _, ts := range convs {
		ts.mu.Lock()
		for _, t := range ts.tabs {
			if t.b == b {
				out = append(out, t)
			}
		}
		ts.mu.Unlock()
	}
	return out
}

package loadtest

import (
	"fmt"
	"time"
)

// progress writes the live line once a second: rewritten in place on a
// terminal, else a line every five seconds.
func (r *run) progress(done <-chan struct{}) {
	w := r.cfg.Progress
	if w == nil {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var last int64
	for tick := 1; ; tick++ {
		select {
		case <-done:
			if r.cfg.TTY {
				fmt.Fprintln(w)
			}
			return
		case <-t.C:
		}
		acts := r.stats.acts.Load()
		line := fmt.Sprintf("%5.0fs  %d conversations  %6d acts/s  errors %d  p99 %.1f ms  restarts %d  renewed %d  violations %d",
			time.Since(r.start).Seconds(), len(r.agents), acts-last, r.stats.unexpected.Load(),
			ms(r.stats.all.quantile(0.99)), r.restarts(), total(r.stats.snapshot(r.stats.renewals)), r.check.Violations())
		last = acts
		switch {
		case r.cfg.TTY:
			fmt.Fprintf(w, "\r%-118s", line)
		case tick%5 == 0:
			fmt.Fprintln(w, line)
		}
	}
}

// restarts is how many times sessions restarted after a crash.
func (r *run) restarts() int64 {
	if r.local != nil {
		return r.local.restarts()
	}
	return r.memberRestarts()
}

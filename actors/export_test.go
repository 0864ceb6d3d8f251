package actors

import "time"

// Delay exposes the backoff delay to the black-box tests.
func Delay(b *Backoff, failures int) time.Duration { return b.delay(failures) }

// NewWarmIdle is NewWarm with its goroutines' idle time set.
func NewWarmIdle(throughput int, idle time.Duration) *Warm { return newWarm(throughput, idle) }

// WarmLive is how many goroutines w has, and whether its sweeper runs.
func WarmLive(w *Warm) (int64, bool) { return w.live.Load(), w.sweeping.Load() }

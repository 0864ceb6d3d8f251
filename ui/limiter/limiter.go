// Package limiter counts failed attempts at a secret a person types or
// follows (a sign-in link, a Telegram pairing code) and refuses further
// attempts from a key once too many failed within a window. One Limiter is
// shared by every surface that checks such a secret, so tries cannot be
// spread across them; each surface names its keys ("telegram:<user>",
// "signin:<address>") and may add a shared one ("any") to bound everyone.
//
// Concurrency: a Limiter is safe for concurrent use; one mutex guards its
// table, held only while counting.
package limiter

import (
	"sync"
	"time"
)

// Limiter refuses a key after Max failures within Window.
type Limiter struct {
	max    int
	window time.Duration
	now    func() time.Time

	mu    sync.Mutex
	fails map[string][]time.Time // key → failures within the window, oldest first
}

// Defaults: five failures in ten minutes.
const (
	DefaultMax    = 5
	DefaultWindow = 10 * time.Minute
	// maxKeys bounds the table: past it, the key whose last failure is
	// oldest is forgotten.
	maxKeys = 4096
)

// New returns a limiter; zero values take the defaults, a nil now is
// time.Now.
func New(maxFails int, window time.Duration, now func() time.Time) *Limiter {
	if maxFails <= 0 {
		maxFails = DefaultMax
	}
	if window <= 0 {
		window = DefaultWindow
	}
	if now == nil {
		now = time.Now
	}
	return &Limiter{max: maxFails, window: window, now: now, fails: map[string][]time.Time{}}
}

// Allow reports whether key may try now; when not, wait says how long
// until it may.
func (l *Limiter) Allow(key string) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := l.recent(key)
	if len(f) < l.max {
		return true, 0
	}
	return false, f[0].Add(l.window).Sub(l.now())
}

// Fail counts one failed attempt of key.
func (l *Limiter) Fail(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f := append(l.recent(key), l.now())
	if len(f) > l.max {
		f = f[len(f)-l.max:]
	}
	if _, known := l.fails[key]; !known && len(l.fails) >= maxKeys {
		l.evict()
	}
	l.fails[key] = f
}

// Reset forgets key's failures (after it succeeded).
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, key)
}

// recent is key's failures still within the window; l.mu is held.
func (l *Limiter) recent(key string) []time.Time {
	f := l.fails[key]
	cut := l.now().Add(-l.window)
	i := 0
	for i < len(f) && !f[i].After(cut) {
		i++
	}
	if i == len(f) {
		delete(l.fails, key)
		return nil
	}
	return f[i:]
}

// evict forgets the key whose last failure is oldest; l.mu is held.
func (l *Limiter) evict() {
	var oldest string
	var at time.Time
	for k, f := range l.fails {
		if last := f[len(f)-1]; oldest == "" || last.Before(at) {
			oldest, at = k, last
		}
	}
	delete(l.fails, oldest)
}

// Package limit slows down guessing: failed sign-ins to the dashboard, and
// the pairing codes of Telegram and the browser extension, all count
// against one Limiter, per source and for the whole install. Each key has a
// bucket of tries that refills at a steady rate; a failure takes a try, and
// a key with none left is refused until one refills. Successes cost
// nothing, so the owner who types the right link is never slowed.
//
// Keys are the caller's: "signin:" + the remote address, "pair:" + the
// extension id, "telegram:" + the chat id. Every failure also counts
// against the install-wide key, so many sources together cannot go faster
// than the global rate either.
//
// Concurrency: a Limiter is safe for concurrent use; its one mutex is held
// only to update a bucket.
package limit

import (
	"strings"
	"sync"
	"time"
)

// Global is the key every failure also counts against.
const Global = "*"

// Config sets the rates; zero fields take the defaults.
type Config struct {
	Tries       int           // tries a key starts with (default 5)
	Every       time.Duration // one try comes back this often (default 1 minute)
	GlobalTries int           // tries of the install-wide key (default 30)
	MaxKeys     int           // keys remembered; the least recently used go first (default 10000)
	// Local are key prefixes that count on their own, not against the
	// install: Telegram's senders, whom a stranger's flood of wrong codes
	// must not lock the owner out with.
	Local []string
	Now   func() time.Time
}

// Limiter is the shared limiter of failed attempts.
type Limiter struct {
	cfg     Config
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tries float64
	at    time.Time // when tries was last brought up to date
	used  time.Time
	// refused is set by the first refusal of a run of them and cleared
	// by the next try allowed: see Check.
	refused bool
}

// New returns a limiter with cfg's rates.
func New(cfg Config) *Limiter {
	if cfg.Tries <= 0 {
		cfg.Tries = 5
	}
	if cfg.Every <= 0 {
		cfg.Every = time.Minute
	}
	if cfg.GlobalTries <= 0 {
		cfg.GlobalTries = 30
	}
	if cfg.MaxKeys <= 0 {
		cfg.MaxKeys = 10000
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Limiter{cfg: cfg, buckets: map[string]*bucket{}}
}

// Allow reports whether key (and the install) may try now; when not, wait
// says how long until the next try comes back.
func (l *Limiter) Allow(key string) (ok bool, wait time.Duration) {
	ok, wait, _ = l.Check(key)
	return ok, wait
}

// Check is Allow that also says whether a refusal is the first of key's
// run of refusals (since key was last allowed a try): a flood of refused
// attempts is then reported once per wait, not once per attempt.
func (l *Limiter) Check(key string) (ok bool, wait time.Duration, first bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.cfg.Now()
	own := l.bucket(key, now)
	for _, k := range l.keys(key) {
		b := l.bucket(k, now)
		if b.tries < 1 {
			first, own.refused = !own.refused, true
			return false, time.Duration((1 - b.tries) * float64(l.cfg.Every)), first
		}
	}
	own.refused = false
	return true, 0, false
}

// Take spends a try of key (and, unless key is local, of the install) when
// every bucket it counts in has one: a rate, for attempts that cost
// whether or not they succeed. When one has none, nothing is spent and
// wait says how long until a try comes back.
func (l *Limiter) Take(key string) (ok bool, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.cfg.Now()
	var bs []*bucket
	for _, k := range l.keys(key) {
		b := l.bucket(k, now)
		if b.tries < 1 {
			return false, time.Duration((1 - b.tries) * float64(l.cfg.Every))
		}
		bs = append(bs, b)
	}
	for _, b := range bs {
		b.tries--
	}
	return true, 0
}

// Fail takes a try from key and, unless key is local, from the install.
func (l *Limiter) Fail(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.cfg.Now()
	for _, k := range l.keys(key) {
		b := l.bucket(k, now)
		b.tries = max(b.tries-1, 0)
	}
}

// Reset gives key all its tries back: its sender got it right.
func (l *Limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.buckets, key)
}

// keys are the buckets a try of key counts in.
func (l *Limiter) keys(key string) []string {
	for _, p := range l.cfg.Local {
		if strings.HasPrefix(key, p) {
			return []string{key}
		}
	}
	return []string{key, Global}
}

// bucket returns key's bucket brought up to date, making it if needed.
func (l *Limiter) bucket(key string, now time.Time) *bucket {
	limit := float64(l.cfg.Tries)
	if key == Global {
		limit = float64(l.cfg.GlobalTries)
	}
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= l.cfg.MaxKeys {
			l.evict()
		}
		b = &bucket{tries: limit, at: now}
		l.buckets[key] = b
	}
	if elapsed := now.Sub(b.at); elapsed > 0 {
		b.tries = min(limit, b.tries+float64(elapsed)/float64(l.cfg.Every))
		b.at = now
	}
	b.used = now
	return b
}

// evict forgets the least recently used key other than the global one.
func (l *Limiter) evict() {
	var oldest string
	var at time.Time
	for k, b := range l.buckets {
		if k != Global && (oldest == "" || b.used.Before(at)) {
			oldest, at = k, b.used
		}
	}
	delete(l.buckets, oldest)
}

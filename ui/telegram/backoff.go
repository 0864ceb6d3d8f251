package telegram

import "time"

// backoff is a capped exponential wait between failed calls: Min after the
// first failure, doubling up to Max, back to nothing after a success.
type backoff struct {
	min, max time.Duration
	next     time.Duration
}

func newBackoff(first, most time.Duration) *backoff { return &backoff{min: first, max: most} }

// fail returns how long to wait after one more failure.
func (b *backoff) fail() time.Duration {
	switch {
	case b.next == 0:
		b.next = b.min
	case b.next < b.max:
		b.next = min(2*b.next, b.max)
	}
	return b.next
}

// ok forgets the failures.
func (b *backoff) ok() { b.next = 0 }

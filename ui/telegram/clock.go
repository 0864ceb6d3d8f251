package telegram

import (
	"context"
	"time"
)

// Clock is the time the bot paces and backs off by. Tests pass a clock
// they advance themselves (telegramtest.Clock), so the number of calls in
// a window is counted, never timed.
type Clock interface {
	Now() time.Time
	// Sleep returns after d, or with ctx's error when ctx ends first.
	Sleep(ctx context.Context, d time.Duration) error
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

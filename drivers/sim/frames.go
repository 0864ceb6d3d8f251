package sim

import (
	"bytes"
	"context"
	"time"
)

// Frames streams a simulated screencast: every 1/fps seconds (fps defaults
// to 5, at most 60) a JPEG of the size bucket nearest size (its longest
// edge). A frame the reader is not ready for is dropped, as a real
// screencast drops them. One goroutine runs per stream; it closes the
// channel and ends when ctx ends or the tabs close.
func (t *Tabs) Frames(ctx context.Context, fps, size int) <-chan []byte {
	out := make(chan []byte, 1)
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		close(out)
		return out
	}
	if t.done == nil {
		t.done = make(chan struct{})
	}
	done := t.done
	t.mu.Unlock()
	if fps <= 0 {
		fps = 5
	}
	fps = min(fps, 60)
	jpg, _, _ := shot(size)
	go stream(ctx, done, out, time.Second/time.Duration(fps), jpg)
	return out
}

func stream(ctx context.Context, done <-chan struct{}, out chan<- []byte, every time.Duration, jpg []byte) {
	defer close(out)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-done:
			return
		case <-tick.C:
			select {
			case out <- bytes.Clone(jpg):
			default:
			}
		}
	}
}

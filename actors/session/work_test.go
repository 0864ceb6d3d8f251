package session

import (
	"context"
	"image"
	"testing"
	"time"
)

// TestShutdownDropsPicturesWaitingForACoreAndWaitsForTheRest holds every
// core's slot, queues a picture behind them, and ends the work: End waits
// for the queued picture, which gives up (nil) instead of being scaled,
// and the slots held are untouched.
func TestShutdownDropsPicturesWaitingForACoreAndWaitsForTheRest(t *testing.T) {
	raw := jpegOf(t, image.NewGray(image.Rect(0, 0, 1600, 900)))
	scales.forget()
	for range cap(scaling) {
		scaling <- struct{}{}
	}
	t.Cleanup(func() {
		for range cap(scaling) {
			<-scaling
		}
	})
	w := NewWork()
	out := make(chan []byte, 1)
	w.Go(func() { out <- scaled(raw, snapEdge, snapQuality, w.ending()) })
	select {
	case <-out:
		t.Fatal("a picture was scaled while every core's slot was held")
	case <-time.After(50 * time.Millisecond):
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.End(ctx); err != nil {
		t.Fatalf("End: %v", err)
	}
	if got := <-out; got != nil {
		t.Fatalf("the picture queued at shutdown was scaled (%d bytes); want it dropped", len(got))
	}
	// Without an end, a queued picture is scaled once a slot frees.
	w2 := NewWork()
	w2.Go(func() { out <- scaled(raw, snapEdge, snapQuality, w2.ending()) })
	<-scaling
	if got := <-out; got == nil {
		t.Fatal("a queued picture was not scaled once a core's slot freed")
	}
	scaling <- struct{}{}
	if err := w2.End(ctx); err != nil {
		t.Fatalf("End: %v", err)
	}
}

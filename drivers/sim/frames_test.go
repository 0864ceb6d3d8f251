package sim_test

import (
	"bytes"
	"context"
	"image/jpeg"
	"testing"

	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestFrames(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	frames := tabs.Frames(ctx, 60, 600)
	for range 2 {
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(<-frames))
		if err != nil || cfg.Width != 640 {
			t.Fatalf("frame %dx%d: %v", cfg.Width, cfg.Height, err)
		}
	}
	cancel()
	for range frames { // drains until the stream closes
	}
}

func TestFramesStopWithTabs(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	frames := tabs.Frames(context.Background(), 30, 320)
	<-frames
	tabs.Close(context.Background())
	for range frames {
	}
	if _, ok := <-tabs.Frames(context.Background(), 30, 320); ok {
		t.Fatal("closed tabs streamed a frame")
	}
}

package pacer_test

import (
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
)

// watch runs one viewer over a link of kbps (0: loopback) until it has n
// frames, and reports the frames' age when they arrived (p50, p99) and
// the bytes per second it received.
func watch(b *testing.B, srv *server, kbps, n int) {
	b.Helper()
	v := dialViewer(b, newSlowLink(b, srv.addr, kbps).Addr())
	for range n {
		select {
		case <-v.got:
		case <-time.After(time.Minute):
			b.Fatal("no frame for a minute")
		}
	}
	_ = v.conn.NetConn().Close()
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.bad != "" && !srv.naive {
		b.Fatal(v.bad)
	}
	secs := time.Since(v.first).Seconds()
	b.ReportMetric(float64(percentile(v.ages, .5).Milliseconds()), "age-p50-ms")
	b.ReportMetric(float64(percentile(v.ages, .99).Milliseconds()), "age-p99-ms")
	b.ReportMetric(float64(v.bytes)/secs, "bytes/s")
	b.ReportMetric(float64(len(v.ages))/secs, "frames/s")
}

// BenchmarkFrameAge: how old the picture is when it reaches a viewer on a
// 1 and a 10 Mbit/s link, paced and sent naively, for a page that never
// stops changing. b.N is the frames the viewer waits for.
func BenchmarkFrameAge(b *testing.B) {
	pin := busyPin(b)
	sys := actortest.System(b)
	for _, kbps := range []int{1000, 10000} {
		for _, naive := range []bool{false, true} {
			name := map[bool]string{false: "pacer", true: "naive"}[naive] + "/" + map[int]string{1000: "1Mbit", 10000: "10Mbit"}[kbps]
			b.Run(name, func(b *testing.B) {
				srv := newServer(b, sys, pin, naive, pacer.Config{Steps: pacer.Steps})
				watch(b, srv, kbps, b.N)
				_ = pin.StopCast(context.Background())
			})
		}
	}
}

// BenchmarkBytesPerStep: what one viewer receives at each quality step
// on loopback, for a page that never stops changing.
func BenchmarkBytesPerStep(b *testing.B) {
	pin := busyPin(b)
	sys := actortest.System(b)
	for i, step := range pacer.Steps {
		b.Run(map[int]string{0: "960x600q50", 1: "640x400q40"}[i], func(b *testing.B) {
			srv := newServer(b, sys, pin, false, pacer.Config{Steps: []drivers.CastOptions{step}})
			watch(b, srv, 0, b.N)
			_ = pin.StopCast(context.Background())
		})
	}
}

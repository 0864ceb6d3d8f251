package grains_test

import (
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/grains"
)

// BenchmarkGrainRequest measures one Incr to a warm grain through the
// member that holds it (local) and through the one that does not
// (remote: one gRPC round trip between the members on 127.0.0.1). Run it
// with -benchtime 2000x.
func BenchmarkGrainRequest(b *testing.B) {
	_, ms := cluster(b, 2)
	holder, other := ms[0], ms[1]
	if c := count(b, ms[0], "bench", &Incr{}); c.Addr != holder.Address() {
		holder, other = other, holder
	}
	for _, via := range []struct {
		name string
		m    *grains.Member
	}{{"local", holder}, {"remote", other}} {
		m := via.m
		b.Run(via.name, func(b *testing.B) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			for b.Loop() {
				if _, err := m.Request(ctx, "bench", &Incr{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

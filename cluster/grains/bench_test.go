package grains_test

import (
	"context"
	"fmt"
	"sync/atomic"
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

// BenchmarkGrainPlacement measures a Request that must find its grain:
// none of these identities is in the calling member's pid cache. Every
// identity is placed by one member, A (it heads their rendezvous order).
// new/* activates a new grain, on A: through A, the lookup and the
// activation are local; through B, B asks A, A activates it on itself
// and B's message crosses once. active/* reaches a grain already active
// on A that the caller has not looked up before: through A (activated
// through B), A's placer answers locally; through B (activated through
// A), B asks A first. Run it with -benchtime 2000x.
//
// It measures the steady state: for five seconds after a topology change
// an authority first asks every member whether it holds a session it does
// not know, one round trip more per member, so the benchmark waits that
// out after the cluster forms.
func BenchmarkGrainPlacement(b *testing.B) {
	_, ms := cluster(b, 2)
	a, other := ms[0], ms[1]
	time.Sleep(6 * time.Second)
	for _, c := range []struct {
		name   string
		via    *grains.Member
		before *grains.Member // activates each identity first, or nil
	}{
		{"new/authority", a, nil},
		{"new/other", other, nil},
		{"active/authority", a, other},
		{"active/other", other, a},
	} {
		b.Run(c.name, func(b *testing.B) {
			ids := placedBy(b, a, c.name, b.N)
			if c.before != nil {
				for _, id := range ids {
					count(b, c.before, id, &Where{})
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			b.ResetTimer()
			for _, id := range ids {
				reply, err := c.via.Request(ctx, id, &Where{})
				if err != nil {
					b.Fatal(err)
				}
				if w, ok := reply.(*Count); !ok || w.Addr != a.Address() {
					b.Fatalf("%s answered %v, not from %s", id, reply, a.Address())
				}
			}
		})
	}
}

// benchSeq numbers the identities a benchmark makes: with -count, a
// sub-benchmark runs again on the same cluster.
var benchSeq atomic.Int64

// placedBy returns n identities, new to the benchmark, that m places.
func placedBy(b *testing.B, m *grains.Member, prefix string, n int) []string {
	b.Helper()
	var ids []string
	for len(ids) < n {
		id := fmt.Sprintf("%s-%d", prefix, benchSeq.Add(1))
		if m.Authority(id) == m.Address() {
			ids = append(ids, id)
		}
	}
	return ids
}

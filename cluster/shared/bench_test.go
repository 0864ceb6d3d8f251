package shared_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// BenchmarkSetStop measures a Stop or resume from the call to etcd's
// commit (fsync included) on a local single-member etcd.
func BenchmarkSetStop(b *testing.B) {
	s := open(b, etcdtest.Start(b))
	ctx := context.Background()
	took := make([]time.Duration, 0, b.N)
	i := 0
	for b.Loop() {
		start := time.Now()
		if _, err := s.SetStop(ctx, i%2 == 0, start); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
		i++
	}
	b.ReportMetric(micros(median(took)), "p50-µs")
}

// BenchmarkStopToWatch measures a Stop written through one host until
// another host's watch delivers it, and how long after SetStop returned
// that was (negative when the watch was first).
func BenchmarkStopToWatch(b *testing.B) {
	srv := etcdtest.Start(b)
	writer := open(b, srv)
	type delivery struct {
		rev int64
		at  time.Time
	}
	got := make(chan delivery, 16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := open(b, srv).Watch(ctx, func(ev shared.Event) {
		got <- delivery{ev.State.Rev, time.Now()}
	}); err != nil {
		b.Fatal(err)
	}
	<-got
	var total, afterAck []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		rev, err := writer.SetStop(ctx, i%2 == 0, start)
		if err != nil {
			b.Fatal(err)
		}
		acked := time.Now()
		d := <-got
		for d.rev != rev {
			d = <-got
		}
		total = append(total, d.at.Sub(start))
		afterAck = append(afterAck, d.at.Sub(acked))
		i++
	}
	b.ReportMetric(micros(median(total)), "p50-µs")
	b.ReportMetric(micros(median(afterAck)), "p50-after-ack-µs")
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

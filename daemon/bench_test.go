package daemon_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// percentiles reports p50 and p99 of lat in microseconds.
func percentiles(b *testing.B, lat []time.Duration, name string) {
	b.Helper()
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), name+"-p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), name+"-p99-µs")
}

// BenchmarkSessionEventAfterAct measures how long after an agent sends an
// act over HTTP a subscriber in the daemon sees the session change it made
// (its step count rising).
func BenchmarkSessionEventAfterAct(b *testing.B) {
	d := daemontest.Start(b, "", simOpts(sim.Config{}, nil))
	token := d.AddAgent(b, "ada", false)
	seen := make(chan time.Time, 1)
	var want atomic.Int64
	sub := d.Events(b, events.Filter{Kinds: messages.KindSession})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		signalled := int64(0)
		for {
			ev, err := sub.Next(ctx)
			if err != nil {
				return
			}
			steps := int64(ev.(*messages.SessionChanged).Session.StepsUsed)
			if steps != want.Load() || steps == signalled {
				continue
			}
			signalled = steps
			select {
			case seen <- time.Now():
			case <-ctx.Done():
				return
			}
		}
	}()
	conv, gen := "", 0
	renew := func() {
		gen++
		conv = fmt.Sprintf("c%d", gen)
		d.Task(b, "ada", conv, 80)
	}
	renew()
	lat := make([]time.Duration, 0, b.N)
	used := 0
	b.ResetTimer()
	for range b.N {
		if used == 79 {
			b.StopTimer()
			renew()
			used = 0
			b.StartTimer()
		}
		used++
		want.Store(int64(used))
		start := time.Now()
		if r := d.Act(b, token, conv, map[string]any{"action": "dom", "maxChars": 100}); !r.OK {
			b.Fatalf("dom: %s", r.Code())
		}
		lat = append(lat, (<-seen).Sub(start))
	}
	b.StopTimer()
	percentiles(b, lat, "event")
}

// BenchmarkStopUnderFlood measures a Stop while eight sessions each have a
// load in flight and one agent floods the ledger with task requests: how
// long until every session dropped its work and closed its tabs (acted),
// and until the owner's answer, which waits for the Stop to be durable.
func BenchmarkStopUnderFlood(b *testing.B) {
	d := daemontest.Start(b, "", simOpts(sim.Config{LoadLatency: time.Hour}, nil))
	token := d.AddAgent(b, "ada", false)
	flooder := d.AddAgent(b, "flooder", false)
	convs := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	for _, c := range convs {
		d.Task(b, "ada", c, 80)
	}
	stops := d.Events(b, events.Filter{Kinds: messages.KindStop})
	var acted, answered []time.Duration
	for i := range b.N {
		b.StopTimer()
		if i > 0 && i%70 == 0 { // each iteration spends a step of every task
			for _, c := range convs {
				d.Must(b, "POST", "/api/browser/release", messages.OwnerBody{Conversation: c})
				d.WaitSession(b, c, "")
				d.Task(b, "ada", c, 80)
			}
		}
		var inflight sync.WaitGroup
		for _, c := range convs {
			inflight.Add(1)
			go func() {
				defer inflight.Done()
				d.Act(b, token, c, map[string]any{"action": "navigate", "url": sim.Origin + "/p/1"})
			}()
			d.WaitSession(b, c, messages.StateWorking)
		}
		stopFlood := make(chan struct{})
		var flooding sync.WaitGroup
		flooding.Add(1)
		go func() {
			defer flooding.Done()
			for n := 0; ; n++ {
				select {
				case <-stopFlood:
					return
				default:
				}
				d.Tool(b, flooder, "browser.task", fmt.Sprintf("f%d-%d", i, n), map[string]any{"description": "flood"})
			}
		}()
		stops.Drain()
		b.StartTimer()
		start := time.Now()
		done := make(chan time.Time, 1)
		go func() {
			d.Must(b, "POST", "/api/browser/stop", nil)
			done <- time.Now()
		}()
		daemontest.Await(b, stops, "for the Stop to act", func(ev messages.Event) bool {
			return ev.(*messages.StopChanged).Settled
		})
		acted = append(acted, time.Since(start))
		answered = append(answered, (<-done).Sub(start))
		b.StopTimer()
		close(stopFlood)
		flooding.Wait()
		inflight.Wait()
		d.Must(b, "POST", "/api/browser/resume", messages.OwnerBody{All: true})
	}
	percentiles(b, acted, "acted")
	percentiles(b, answered, "durable")
}

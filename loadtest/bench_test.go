package loadtest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// benchRun starts an in-process daemon with n conversations, each on a
// link page with a fresh observation.
func benchRun(b *testing.B, n int) *run {
	b.Helper()
	cfg, err := Config{Conversations: n, Duration: time.Second, StaleRate: -1}.withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	r, err := newRun(cfg, true)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = r.close() })
	r.fullBudgets = true
	if err := r.setup(); err != nil {
		b.Fatal(err)
	}
	for _, a := range r.agents {
		a.ready(b)
	}
	return r
}

// ready puts the agent on a link page with a fresh observation.
func (a *agent) ready(b *testing.B) {
	if code, _ := a.send(&act{action: "navigate", url: a.r.site.origin + "/p/1"}, false); code != "" {
		b.Fatalf("navigate: %s", code)
	}
	a.observe(context.Background())
	if a.pg == nil || len(a.pg.links) == 0 {
		b.Fatal("the observation has no links")
	}
}

// renewForBench releases the conversation and goes on under a new
// conversation id with a new task. (Starting the same conversation again
// at once can strand it: see the note on stuck conversations in agent.go.)
func (a *agent) renewForBench(b *testing.B) {
	a.r.ownerCall("release", "POST", "/api/browser/release", messages.OwnerBody{Conversation: a.conv})
	a.gen++
	a.conv = fmt.Sprintf("%s.%d", a.base, a.gen)
	if code := a.r.startTask("task", a.name, a.conv, maxSteps); code != "" {
		b.Fatalf("a new task for %s: %s", a.conv, code)
	}
	a.ready(b)
}

// hover is one input act round trip; every 70 it starts a new task (the
// budget is 80 steps), off the clock when the caller lets it.
func (a *agent) hover(b *testing.B, n *int, clock func(bool)) {
	if *n == 70 {
		clock(false)
		a.renewForBench(b)
		*n = 0
		clock(true)
	}
	*n++
	if code, _ := a.send(&act{action: "hover", observation: a.pg.id, ref: a.pg.links[0]}, false); code != "" {
		b.Fatalf("hover: %s", code)
	}
}

// BenchmarkActRoundTrip is one agent's input act through the HTTP API,
// the controller, the session actor and the sim driver, and back.
func BenchmarkActRoundTrip(b *testing.B) {
	r := benchRun(b, 1)
	a, n := r.agents[0], 0
	clock := func(on bool) {
		if on {
			b.StartTimer()
		} else {
			b.StopTimer()
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		a.hover(b, &n, clock)
	}
}

// BenchmarkActRoundTripParallel is the same act from 64 conversations at
// once: throughput, with task renewals on the clock.
func BenchmarkActRoundTripParallel(b *testing.B) {
	const convs = 64
	r := benchRun(b, convs)
	var next atomic.Int64
	b.SetParallelism((convs + 1) / 2)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		a, n := r.agents[int(next.Add(1)-1)%convs], 0
		for pb.Next() {
			a.hover(b, &n, func(bool) {})
		}
	})
}

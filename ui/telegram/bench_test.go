package telegram_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/telegram"
)

// BenchmarkStepToPhoto measures the delay from a step (its event's time)
// to its photo arriving at the fake Bot API, one step at a time, with the
// chat's pace out of the way: what the bot itself adds (the event queue,
// the checks, the caption, the multipart upload over loopback).
//
//	go test -run XXX -bench StepToPhoto -benchtime 200x ./ui/telegram/
func BenchmarkStepToPhoto(b *testing.B) {
	r := start(b, options{tune: telegram.Tuning{Pace: time.Millisecond}})
	token := r.benchAgent(b)
	var delays []time.Duration
	b.ResetTimer()
	for i := range b.N {
		r.renew(b, i)
		rep := r.Act(b, token, "c1", map[string]any{"action": "navigate", "url": fmt.Sprintf("https://sim.localhost/p/%d", i%2+1)})
		daemontest.WantCode(b, rep, "")
		ev := daemontest.Await(b, r.steps, "the step", func(messages.Event) bool { return true }).(*messages.StepTaken)
		r.fake.AwaitCount(b, "sendPhoto", i+1)
		delays = append(delays, r.fake.Calls("sendPhoto")[i].At.Sub(ev.At))
	}
	b.StopTimer()
	sort.Slice(delays, func(i, j int) bool { return delays[i] < delays[j] })
	b.ReportMetric(float64(delays[len(delays)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(delays[len(delays)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkSustainedPhotos runs an agent that acts as fast as buddi
// answers, on a bound conversation, for 30 seconds at Telegram's real pace
// (a message a second per chat), and reports the photos that reached the
// fake per minute, the steps per minute, and the steps whose photo gave way
// to a newer one.
//
//	go test -run XXX -bench SustainedPhotos -benchtime 1x ./ui/telegram/
func BenchmarkSustainedPhotos(b *testing.B) {
	const window = 30 * time.Second
	for range b.N {
		r := start(b, options{realPace: true})
		token := r.benchAgent(b)
		before := len(r.fake.Calls("sendPhoto"))
		start := time.Now()
		steps := 0
		for time.Since(start) < window {
			r.Act(b, token, "c1", map[string]any{"action": "navigate", "url": fmt.Sprintf("https://sim.localhost/p/%d", steps%50+1)})
			steps++
			r.renew(b, steps)
		}
		elapsed := time.Since(start)
		photos := len(r.fake.Calls("sendPhoto")) - before
		b.ReportMetric(float64(photos)/elapsed.Minutes(), "photos/min")
		b.ReportMetric(float64(steps)/elapsed.Minutes(), "steps/min")
		b.ReportMetric(float64(r.Telegram().Coalesced()), "coalesced")
	}
}

func (r *rig) benchAgent(b *testing.B) string {
	b.Helper()
	r.pair(b)
	token := r.AddAgent(b, "ada", false)
	r.Task(b, "ada", "c1", 80)
	r.bind(b, "c1")
	return token
}

// renew gives c1 a fresh task every 75 steps, before the budget of 80 runs
// out; the binding stays.
func (r *rig) renew(b *testing.B, step int) {
	if step == 0 || step%75 != 0 {
		return
	}
	r.Must(b, "POST", "/api/browser/release", messages.OwnerBody{Conversation: "c1"})
	r.Task(b, "ada", "c1", 80)
}

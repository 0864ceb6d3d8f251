package cluster_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// BenchmarkStopToLastRefusal measures, over three member processes, the
// time from the owner's Stop through b being acknowledged (its HTTP answer)
// until the last of a, b and c refuses an agent's act in a conversation it
// holds itself, each polled through that member without pause. after-ack
// is negative when every member refused before the owner had the answer;
// from-request counts from the moment the Stop was sent.
func BenchmarkStopToLastRefusal(bm *testing.B) {
	etcd, a, b, c := three(bm)
	members := []*member{a, b, c}
	for i := 0; a.probeConv == "" || b.probeConv == "" || c.probeConv == ""; i++ {
		conv := fmt.Sprintf("probe-%d", i)
		a.Act(bm, a.agent, conv, map[string]any{"action": "observe"}) // no_task: its grain is placed
		if h := homeOf(bm, etcd, conv, members...); h.probeConv == "" {
			h.probeConv = conv
		}
	}
	var afterAck, fromRequest []time.Duration
	for bm.Loop() {
		refused := make([]time.Time, len(members))
		var wg sync.WaitGroup
		go0 := make(chan struct{})
		for i, m := range members {
			wg.Go(func() {
				<-go0
				var err error
				if refused[i], err = m.refusedAt(); err != nil {
					bm.Error(err)
				}
			})
		}
		sent := time.Now()
		close(go0)
		b.Must(bm, "POST", "/api/browser/stop", nil)
		acked := time.Now()
		wg.Wait()
		if bm.Failed() {
			bm.FailNow()
		}
		last := slices.MaxFunc(refused, func(x, y time.Time) int { return x.Compare(y) })
		afterAck = append(afterAck, last.Sub(acked))
		fromRequest = append(fromRequest, last.Sub(sent))

		bm.StopTimer()
		b.Must(bm, "POST", "/api/browser/resume", messages.OwnerBody{All: true})
		for _, m := range members {
			m.eventually(bm, messages.CodeNoTask)
		}
		bm.StartTimer()
	}
	slices.Sort(afterAck)
	slices.Sort(fromRequest)
	bm.ReportMetric(ms(afterAck[len(afterAck)/2]), "p50-after-ack-ms")
	bm.ReportMetric(ms(afterAck[len(afterAck)-1]), "max-after-ack-ms")
	bm.ReportMetric(ms(fromRequest[len(fromRequest)/2]), "p50-from-request-ms")
	bm.ReportMetric(ms(fromRequest[len(fromRequest)-1]), "max-from-request-ms")
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// refusedAt probes the member without pause until it refuses with
// stopped, and says when; it may run off the benchmark's goroutine.
func (m *member) refusedAt() (time.Time, error) {
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); {
		r, err := m.Do("POST", "/api/tools/browser.act", m.agent, map[string]any{"conversation": m.probeConv, "input": map[string]any{"action": "observe"}})
		if err != nil {
			return time.Time{}, err
		}
		if r.Code() == messages.CodeStopped {
			return time.Now(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%s did not refuse within %v", m.name, patience)
}

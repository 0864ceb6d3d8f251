package cluster_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
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

// BenchmarkHandFrames drives a take-over's live view, acking each frame
// as it comes, from the dashboard of the member running the session
// (here) and of another member (there): frames/s and the ms from a frame
// to the next, which include the ack's way back.
func BenchmarkHandFrames(bm *testing.B) {
	etcd, a, b, c := three(bm)
	a.Task(bm, "ada", "hb", 80)
	b.Observe(bm, b.agent, "hb")
	home := homeOf(bm, etcd, "hb", a, b, c)
	for _, where := range []struct {
		name string
		m    *member
	}{{"here", home}, {"there", others(home, a, b, c)[0]}} {
		bm.Run(where.name, func(bm *testing.B) {
			where.m.Must(bm, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "hb"})
			tab := where.m.hand(bm, "hb")
			if n := tab.note(bm); n.Type != messages.HandNoteAttached {
				bm.Fatalf("the hand said %+v", n)
			}
			frames, start := 0, time.Now()
			for bm.Loop() {
				select {
				case f := <-tab.frames:
					fr, _, err := handwire.DecodeFrame(f)
					if err != nil {
						bm.Fatal(err)
					}
					frames++
					tab.send(bm, map[string]any{"t": string(handwire.Ack), "seq": fr.Seq})
				case n := <-tab.notes:
					bm.Fatalf("the hand ended: %+v", n)
				case <-time.After(patience):
					bm.Fatal("no frame came")
				}
			}
			took := time.Since(start)
			bm.ReportMetric(float64(frames)/took.Seconds(), "frames/s")
			bm.ReportMetric(ms(took)/float64(max(frames, 1)), "ms/frame")
			tab.send(bm, map[string]any{"t": string(handwire.Give)})
		})
	}
}

// BenchmarkRefuseWithoutEtcd measures, over three member processes whose
// etcd is stopped, the time a member takes to refuse a new conversation
// (an agent's first call, cluster_unreachable) once it knows etcd is away.
// Run it with
//
//	go test ./e2e/cluster -run '^$' -bench RefuseWithoutEtcd -benchtime 20x
func BenchmarkRefuseWithoutEtcd(bm *testing.B) {
	etcd, a, b, c := three(bm)
	members := []*member{a, b, c}
	etcd.Stop()
	for _, m := range members {
		m.healthUntil(bm, func(h messages.Health) bool { return h.Cluster.Etcd == "unreachable" })
	}
	var took []time.Duration
	i := 0
	for bm.Loop() {
		m := members[i%len(members)]
		start := time.Now()
		r := m.Act(bm, m.agent, fmt.Sprintf("new-%d", i), map[string]any{"action": "observe"})
		took = append(took, time.Since(start))
		if r.Code() != messages.CodeClusterDown {
			bm.Fatalf("a new conversation through %s without etcd answered %q", m.name, r.Code())
		}
		i++
	}
	slices.Sort(took)
	bm.ReportMetric(ms(took[len(took)/2]), "p50-ms")
	bm.ReportMetric(ms(took[len(took)-1]), "max-ms")
}

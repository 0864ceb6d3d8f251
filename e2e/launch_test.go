package e2e_test

import (
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// burn keeps n processes spinning on the CPU until the test ends: the
// loaded machine (two busy processes on two cores) buddi must start on.
func burn(t testing.TB, n int) {
	t.Helper()
	for range n {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	}
}

// firstAct starts buddi serve on a fresh data directory with page as a
// preview origin, registers an agent with a task, and navigates once: the
// first thing a new user's agent does. It returns the answer, the time
// from starting serve to it, and the daemon (the caller stops it).
func firstAct(t testing.TB, page string) (*daemontest.Reply, time.Duration, *buddi) {
	t.Helper()
	start := time.Now()
	b := serve(t, "", "BUDDI_PREVIEW_ORIGINS="+page)
	tok := b.AddAgent(t, "ada", false)
	b.Task(t, "ada", "c1", 80)
	r := b.Act(t, tok, "c1", in{"action": "navigate", "url": page + "/"})
	return r, time.Since(start), b
}

// The first navigate of a new install answers ok on a loaded machine, three
// times of three: serve starts the browser as it starts, and the act waits
// for it (its timing says how long) before its own deadline begins.
func TestE2EFirstNavigateOfAFreshInstallUnderLoad(t *testing.T) {
	s := newSite(t)
	burn(t, 2)
	for i := range 3 {
		r, took, b := firstAct(t, s.URL)
		b.stop()
		if !r.OK {
			t.Fatalf("try %d: the first navigate answered %s: %s (%v after serve started)", i+1, r.Code(), r.Error.Message, took)
		}
		res := r.Map()
		if res["outcome"] != "loaded" {
			t.Fatalf("try %d: the first navigate: %v", i+1, res)
		}
		t.Logf("try %d: serve to the first ok navigate: %v (it waited %v for the browser)", i+1, took.Round(time.Millisecond), res["timing"])
	}
}

// BenchmarkServeToFirstOKAct reports the time from starting buddi serve on
// a fresh data directory to its agent's first navigate answering ok, on
// this machine as it is (busy=0) and with two more processes spinning
// (busy=2).
func BenchmarkServeToFirstOKAct(b *testing.B) {
	s := newSite(b)
	for _, busy := range []int{0, 2} {
		b.Run(fmt.Sprintf("busy=%d", busy), func(b *testing.B) {
			burn(b, busy)
			var total time.Duration
			for i := 0; i < b.N; i++ {
				r, took, d := firstAct(b, s.URL)
				d.stop()
				if !r.OK {
					b.Fatalf("the first navigate answered %s: %s", r.Code(), r.Error.Message)
				}
				total += took
			}
			b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-first-ok")
		})
	}
}

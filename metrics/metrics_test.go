package metrics_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/buddi-dev/buddi/metrics"
)

func TestRegistryWritesTheTextFormat(t *testing.T) {
	r := metrics.New()
	acts := r.Counter("buddi_acts_total", "Acts by action and code.", "action", "code")
	lat := r.Histogram("buddi_act_seconds", "How long acts took.", []float64{0.1, 1})
	r.GaugeFunc("buddi_sessions", "Sessions by state.", []string{"state"}, func(emit metrics.Emit) {
		emit(2, "working")
		emit(1, "paused")
	})
	acts.With("click", "").Inc()
	acts.With("navigate", "private_address").Add(2)
	acts.With("click", "").Inc()
	lat.Observe(0.05)
	lat.Observe(0.5)
	lat.Observe(3)
	var b strings.Builder
	if _, err := r.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	want := `# HELP buddi_acts_total Acts by action and code.
# TYPE buddi_acts_total counter
buddi_acts_total{action="click",code=""} 2
buddi_acts_total{action="navigate",code="private_address"} 2
# HELP buddi_act_seconds How long acts took.
# TYPE buddi_act_seconds histogram
buddi_act_seconds_bucket{le="0.1"} 1
buddi_act_seconds_bucket{le="1"} 2
buddi_act_seconds_bucket{le="+Inf"} 3
buddi_act_seconds_sum 3.55
buddi_act_seconds_count 3
# HELP buddi_sessions Sessions by state.
# TYPE buddi_sessions gauge
buddi_sessions{state="paused"} 1
buddi_sessions{state="working"} 2
`
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestLabelValuesAreEscaped(t *testing.T) {
	r := metrics.New()
	r.Counter("x_total", "help with \\ and\nnewline", "v").With("a\"b\\c\nd").Inc()
	var b strings.Builder
	_, _ = r.WriteTo(&b)
	if !strings.Contains(b.String(), `x_total{v="a\"b\\c\nd"} 1`) || !strings.Contains(b.String(), `help with \\ and\nnewline`) {
		t.Fatalf("not escaped:\n%s", b.String())
	}
}

func TestCountersAreSafeFromManyGoroutines(t *testing.T) {
	r := metrics.New()
	c := r.Counter("c_total", "c", "k")
	h := r.Histogram("h_seconds", "h", metrics.LatencyBuckets)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1000 {
				c.With("a").Inc()
				h.Observe(0.002)
			}
		}()
	}
	wg.Wait()
	if c.With("a").Value() != 8000 || h.Count() != 8000 {
		t.Fatalf("counted %d and %d, want 8000 each", c.With("a").Value(), h.Count())
	}
}

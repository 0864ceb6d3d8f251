package metrics_test

import (
	"crypto/sha256"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/metrics"
)

// cpuOf scrapes r and reads the process's CPU seconds from the page.
func cpuOf(t *testing.T, r *metrics.Registry) float64 {
	t.Helper()
	var b strings.Builder
	if _, err := r.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "# TYPE process_cpu_seconds_total counter\n") {
		t.Fatalf("the page has no process_cpu_seconds_total counter:\n%s", b.String())
	}
	v, ok := metrics.Value([]byte(b.String()), "process_cpu_seconds_total")
	if !ok {
		t.Fatalf("the page has no sample of process_cpu_seconds_total:\n%s", b.String())
	}
	return v
}

// burn hashes 64 MB: tens of milliseconds of CPU on any machine.
func burn() [32]byte {
	buf := make([]byte, 1<<20)
	var sum [32]byte
	for range 64 {
		sum = sha256.Sum256(append(buf[:len(buf)-32], sum[:]...))
	}
	return sum
}

func TestProcessCPUGrowsWithTheWorkDone(t *testing.T) {
	r := metrics.New()
	r.Process()
	before := cpuOf(t, r)
	if before <= 0 {
		t.Fatalf("the process has used %v s of CPU, want above 0", before)
	}
	_ = burn()
	if after := cpuOf(t, r); after <= before {
		t.Fatalf("the CPU seconds went from %v to %v over 64 MB of hashing, want more", before, after)
	}
}

func TestValueReadsOneUnlabelledSample(t *testing.T) {
	page := []byte("# HELP process_cpu_seconds_total x\n# TYPE process_cpu_seconds_total counter\n" +
		"process_cpu_seconds_total_other 9\nprocess_cpu_seconds_total 12.5 1700000000000\nbuddi_x{a=\"b\"} 3\n")
	for name, want := range map[string]float64{"process_cpu_seconds_total": 12.5} {
		if v, ok := metrics.Value(page, name); !ok || v != want {
			t.Errorf("%s read as %v (%v), want %v", name, v, ok, want)
		}
	}
	for _, name := range []string{"process_cpu", "buddi_x", "absent"} {
		if v, ok := metrics.Value(page, name); ok {
			t.Errorf("%s read as %v, want no sample", name, v)
		}
	}
}

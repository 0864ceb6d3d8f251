package ui_test

import (
	"context"
	"testing"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/metrics"
)

// TestMetricsGiveTheProcesssCPUAndMemory reads /metrics with the owner
// token, as the load test reads a target's: the CPU time grows over acts
// (the daemon runs in the test's process, so the test's own work counts
// too) and the resident set is there on Linux.
func TestMetricsGiveTheProcesssCPUAndMemory(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	owner := d.API.Owner(d.Owner)
	read := func(name string) float64 {
		t.Helper()
		page, err := owner.Metrics(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		v, ok := metrics.Value(page, name)
		if !ok || v <= 0 {
			t.Fatalf("/metrics gives %s as %v (%v), want a figure above 0:\n%s", name, v, ok, page)
		}
		return v
	}
	before := read("process_cpu_seconds_total")
	read("process_resident_memory_bytes")
	tok := d.AddAgent(t, "ada", false)
	d.Task(t, "ada", "c1", 80)
	for range 50 {
		d.Observe(t, tok, "c1")
	}
	if after := read("process_cpu_seconds_total"); after <= before {
		t.Fatalf("the CPU seconds went from %v to %v over 50 observations, want more", before, after)
	}
}

package sim_test

import (
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestFaults(t *testing.T) {
	type check func(t *testing.T, tabs *sim.Tabs) error
	click := func(t *testing.T, tabs *sim.Tabs) error {
		navigate(t, tabs, "https://sim.localhost/p/1")
		link := target(t, observe(t, tabs), "link", "Home")
		_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Click, Target: link})
		return err
	}
	observeNow := func(t *testing.T, tabs *sim.Tabs) error {
		_, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
		return err
	}
	for name, tc := range map[string]struct {
		faults sim.Faults
		run    check
		code   drivers.Code
		inputs int64
	}{
		"observe fails":  {sim.Faults{ObserveFail: 1}, observeNow, drivers.CodeNotAnswering, 0},
		"tab gone":       {sim.Faults{TabGone: 1}, observeNow, drivers.CodeTabGone, 0},
		"target missed":  {sim.Faults{TargetMiss: 1}, click, drivers.CodeTargetMiss, 0},
		"partial input":  {sim.Faults{PartialInput: 1}, click, drivers.CodePartial, 1},
		"never at p = 0": {sim.Faults{}, click, "", 1},
	} {
		t.Run(name, func(t *testing.T) {
			_, tabs := open(t, sim.Config{Faults: tc.faults})
			wantCode(t, tc.run(t, tabs), tc.code)
			if got := tabs.Inputs().Total(); got != tc.inputs {
				t.Fatalf("%d inputs counted, want %d", got, tc.inputs)
			}
		})
	}
}

func TestTabGoneClosesActiveTab(t *testing.T) {
	d := sim.New(sim.Config{Faults: sim.Faults{TabGone: 1}})
	defer d.Close()
	tabs, _ := d.Open(context.Background(), "c")
	_, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeTabGone)
	if out := do(t, tabs, tabOp("list", "")); len(out.Tabs) != 0 {
		t.Fatalf("tabs after the fault: %+v", out.Tabs)
	}
}

func TestSlowLoadLeavesLoadPending(t *testing.T) {
	_, tabs := open(t, sim.Config{Faults: sim.Faults{SlowLoad: 1}})
	out := do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: "https://sim.localhost/p/5", Timeout: time.Millisecond})
	if out.Result != drivers.LoadPending || out.URL != "https://sim.localhost/p/5" {
		t.Fatalf("slow navigate = %+v", out)
	}
	_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}, Timeout: time.Millisecond})
	wantCode(t, err, drivers.CodeTimeout)
	tabs.Interrupt() // stops the pending load
	do(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}, Timeout: time.Millisecond})
}

func TestFaultsReplayWithSeed(t *testing.T) {
	pattern := func(seed int64) (p []bool) {
		d := sim.New(sim.Config{Seed: seed, Faults: sim.Faults{ObserveFail: 0.5}})
		defer d.Close()
		tabs, _ := d.Open(context.Background(), "conv")
		for range 64 {
			_, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
			p = append(p, err != nil)
		}
		return p
	}
	a, b, c := pattern(1), pattern(1), pattern(2)
	fails := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different draw at %d", i)
		}
		if a[i] {
			fails++
		}
	}
	if fails == 0 || fails == len(a) {
		t.Fatalf("p = 0.5 failed %d of %d", fails, len(a))
	}
	if equal(a, c) {
		t.Fatal("seeds 1 and 2 drew the same faults")
	}
}

func equal(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

package sim_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

// TestConcurrentUse drives one conversation from several goroutines with
// every fault enabled while another interrupts it; run it under -race.
func TestConcurrentUse(t *testing.T) {
	var hooked atomic.Int64
	d, tabs := open(t, sim.Config{
		Pages:   8,
		Faults:  sim.Faults{TabGone: 0.02, TargetMiss: 0.1, PartialInput: 0.1, ObserveFail: 0.1},
		OnInput: func(string, drivers.Kind) { hooked.Add(1) },
	})
	ctx := context.Background()
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			for i := range 150 {
				tabs.Do(ctx, &drivers.Action{Kind: drivers.TabAction, TabOp: "new", URL: fmt.Sprintf("https://sim.localhost/p/%d", (w+i)%8)})
				obs, err := tabs.Observe(ctx, drivers.ObserveOptions{FullPage: i%2 == 0})
				if err != nil {
					continue
				}
				for _, tg := range obs.Refs {
					tabs.Do(ctx, &drivers.Action{Kind: drivers.Click, Target: obs.Of(tg)})
					break
				}
				tabs.Do(ctx, &drivers.Action{Kind: drivers.Back})
				tabs.Do(ctx, tabOp("close", obs.Tab))
			}
		})
	}
	wg.Go(func() {
		for range 300 {
			tabs.Interrupt()
			tabs.Inputs()
			d.Stats()
		}
	})
	wg.Wait()
	if got, want := d.Stats(), tabs.Inputs(); got != want {
		t.Fatalf("driver counted %+v, conversation %+v", got, want)
	}
	if n := hooked.Load(); n != tabs.Inputs().Total() {
		t.Fatalf("OnInput called %d times for %d inputs", n, tabs.Inputs().Total())
	}
}

func TestLongHistoryStaysBounded(t *testing.T) {
	_, tabs := open(t, sim.Config{Pages: 3})
	for i := range 200 {
		navigate(t, tabs, fmt.Sprintf("https://sim.localhost/p/%d", i%3))
	}
	backs := 0
	for do(t, tabs, &drivers.Action{Kind: drivers.Back}).Changed {
		backs++
	}
	if backs == 0 || backs >= 200 {
		t.Fatalf("went back %d times through 200 navigations", backs)
	}
}

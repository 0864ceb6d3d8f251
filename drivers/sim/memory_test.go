package sim_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

// TestIdleConversationHeap asserts a size, not a time: 1,000 conversations,
// each having loaded and observed a page, grow the heap by under 50 KB each.
func TestIdleConversationHeap(t *testing.T) {
	const n, budget = 1000, 50 << 10
	ctx := context.Background()
	d := sim.New(sim.Config{})
	defer d.Close()
	warm, _ := d.Open(ctx, "warm") // builds every shared template first
	for i := range 50 {
		navigate(t, warm, fmt.Sprintf("https://sim.localhost/p/%d", i))
		navigate(t, warm, fmt.Sprintf("https://sim.localhost/form/%d", i))
	}

	before := heap()
	all := make([]drivers.Tabs, n)
	for i := range all {
		all[i], _ = d.Open(ctx, fmt.Sprintf("conversation-%d", i))
		navigate(t, all[i], fmt.Sprintf("https://sim.localhost/p/%d", i%50))
		observe(t, all[i])
	}
	per := (int64(heap()) - int64(before)) / n
	runtime.KeepAlive(all)
	t.Logf("heap per idle conversation: %d B", per)
	if per > budget {
		t.Fatalf("an idle conversation costs %d B of heap, budget %d", per, budget)
	}
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestProfilesOfAModeShareOneCopyOfThePages asserts a size: 40 profiles of
// one Mode that have each loaded every page hold about one copy of the
// site's templates, not forty.
func TestProfilesOfAModeShareOneCopyOfThePages(t *testing.T) {
	const profiles, pages = 40, 10
	ctx := context.Background()
	visitAll := func(d drivers.Driver, conv string) drivers.Tabs {
		tabs, err := d.Open(ctx, conv)
		if err != nil {
			t.Fatal(err)
		}
		for i := range pages {
			navigate(t, tabs, fmt.Sprintf("https://sim.localhost/p/%d", i))
			navigate(t, tabs, fmt.Sprintf("https://sim.localhost/form/%d", i))
		}
		return tabs
	}

	before := heap()
	one := sim.New(sim.Config{Pages: pages})
	defer one.Close()
	visitAll(one, "alone")
	copyBytes := int64(heap()) - int64(before)

	before = heap()
	m := sim.NewMode(sim.Config{Pages: pages}, profiles)
	all := make([]drivers.Tabs, profiles)
	for i := range all {
		d, err := m.Open(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		all[i] = visitAll(d, fmt.Sprintf("profile-%d", i))
	}
	grown := int64(heap()) - int64(before)
	runtime.KeepAlive(all)
	t.Logf("one copy of the pages: %d B; %d profiles of a mode: %d B", copyBytes, profiles, grown)
	if grown > 3*copyBytes {
		t.Fatalf("%d profiles that loaded every page hold %d B, more than three copies of the pages (%d B each)", profiles, grown, copyBytes)
	}
}

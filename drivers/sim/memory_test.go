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

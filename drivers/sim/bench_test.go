package sim_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func BenchmarkObserve(b *testing.B) {
	_, tabs := open(b, sim.Config{})
	navigate(b, tabs, "https://sim.localhost/p/7")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tabs.Observe(ctx, drivers.ObserveOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClick(b *testing.B) {
	_, tabs := open(b, sim.Config{})
	navigate(b, tabs, "https://sim.localhost/form/7")
	box := &drivers.Action{Kind: drivers.Click, Target: target(b, observe(b, tabs), "checkbox", "I accept the terms")}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tabs.Do(ctx, box); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClickNavigate(b *testing.B) {
	_, tabs := open(b, sim.Config{})
	navigate(b, tabs, "https://sim.localhost/p/1")
	home := &drivers.Action{Kind: drivers.Click, Target: target(b, observe(b, tabs), "link", "Catalog")}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tabs.Do(ctx, home); err != nil { // /p/1 links to itself
			b.Fatal(err)
		}
	}
}

func BenchmarkOpenClose(b *testing.B) {
	d := sim.New(sim.Config{})
	defer d.Close()
	ctx := context.Background()
	names := make([]string, 1024)
	for i := range names {
		names[i] = "conversation-" + strconv.Itoa(i)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tabs, err := d.Open(ctx, names[i%len(names)])
		if err != nil {
			b.Fatal(err)
		}
		tabs.Close(ctx)
		i++
	}
}

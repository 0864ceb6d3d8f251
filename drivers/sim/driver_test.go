package sim_test

import (
	"context"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestStatusAndClose(t *testing.T) {
	d := sim.New(sim.Config{})
	ctx := context.Background()
	if s := d.Status(ctx); s.Driver != "sim" || !s.Found || !s.Headless || s.Running {
		t.Fatalf("status before Open = %+v", s)
	}
	a, _ := d.Open(ctx, "a")
	b, _ := d.Open(ctx, "b")
	if again, _ := d.Open(ctx, "a"); again != a || d.Conversation("a") != a {
		t.Fatal("a second Open returned other tabs")
	}
	if !d.Status(ctx).Running {
		t.Fatal("not running after Open")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for _, tabs := range []drivers.Tabs{a, b} {
		_, err := tabs.Observe(ctx, drivers.ObserveOptions{})
		wantCode(t, err, drivers.CodeNoBrowser)
	}
	if d.Status(ctx).Running || d.Conversation("a") != nil {
		t.Fatal("still running after Close")
	}
}

func TestSiteIsDeterministic(t *testing.T) {
	tree := func(seed int64) string {
		_, tabs := open(t, sim.Config{Seed: seed})
		navigate(t, tabs, "https://sim.localhost/form/9")
		return observe(t, tabs).Tree
	}
	if first, again := tree(3), tree(3); first != again {
		t.Fatal("same seed, different page")
	}
	if tree(3) == tree(4) {
		t.Fatal("different seeds, same page")
	}
}

package playwright_test

import (
	"context"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

func TestConversationsAreIsolated(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/a", "A", `a`)
	s.page("/b", "B", `b`)
	a, b := openConv(t, d, t.Name()+"-a"), openConv(t, d, t.Name()+"-b")
	navigate(t, a, s.URL+"/a")
	navigate(t, b, s.URL+"/b")
	out := mustDo(t, a, &drivers.Action{Kind: drivers.TabAction, TabOp: "new"})
	if len(out.Tabs) != 2 || out.Tabs[0].ID != "t1" || out.Tabs[1].ID != "t2" || !out.Tabs[1].Active {
		t.Fatalf("a's tabs: %+v", out.Tabs)
	}
	obs := observe(t, b, drivers.ObserveOptions{})
	if len(obs.Tabs) != 1 || obs.Tabs[0].ID != "t1" || obs.URL != s.URL+"/b" {
		t.Fatalf("b sees: %+v at %s", obs.Tabs, obs.URL)
	}
	_, err := b.Do(testCtx(t), &drivers.Action{Kind: drivers.TabAction, TabOp: "switch", TabID: "t2"})
	wantCode(t, err, drivers.CodeTabGone)
	if again, err := d.Open(testCtx(t), t.Name()+"-a"); err != nil || again != a {
		t.Fatalf("opening a again gave %v, %v", again, err)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if obs := observe(t, b, drivers.ObserveOptions{}); obs.URL != s.URL+"/b" {
		t.Fatalf("closing a disturbed b: %s", obs.URL)
	}
}

func TestTabGone(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/a", "A", `<button>Press</button>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/a")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	btn := target(t, obs, "button", "Press")
	mustDo(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "close", TabID: "t1"})
	_, err := tabs.Observe(testCtx(t), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeTabGone)
	_, err = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: btn})
	wantCode(t, err, drivers.CodeTabGone)
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "new"})
	if len(out.Tabs) != 1 || out.Tabs[0].ID != "t2" {
		t.Fatalf("tabs: %+v", out.Tabs)
	}
}

package sim_test

import (
	"context"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func tabOp(op, id string) *drivers.Action {
	return &drivers.Action{Kind: drivers.TabAction, TabOp: op, TabID: id}
}

func ids(tabs []drivers.TabInfo) (all []string, active string) {
	for _, tb := range tabs {
		all = append(all, tb.ID)
		if tb.Active {
			active = tb.ID
		}
	}
	return all, active
}

func TestTabOps(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/1")
	out := do(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "new", URL: "https://sim.localhost/p/2"})
	if all, active := ids(out.Tabs); len(all) != 2 || active != "t2" || out.URL != "https://sim.localhost/p/2" {
		t.Fatalf("new: %v active %s at %s", all, active, out.URL)
	}
	if out := do(t, tabs, tabOp("switch", "t1")); out.URL != "https://sim.localhost/p/1" || !out.Changed {
		t.Fatalf("switch = %+v", out)
	}
	out = do(t, tabs, tabOp("close", "t2"))
	if all, active := ids(out.Tabs); len(all) != 1 || active != "t1" || out.Changed {
		t.Fatalf("close t2: %v active %s changed %v", all, active, out.Changed)
	}
	out = do(t, tabs, tabOp("close", ""))
	if len(out.Tabs) != 0 || !out.Changed {
		t.Fatalf("close active = %+v", out)
	}
	_, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeTabGone)
	_, err = tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Navigate, URL: "https://sim.localhost/p/1"})
	wantCode(t, err, drivers.CodeTabGone)

	out = do(t, tabs, tabOp("new", ""))
	if all, active := ids(out.Tabs); len(all) != 1 || active != "t3" {
		t.Fatalf("new after closing all: %v active %s", all, active)
	}
	if obs := observe(t, tabs); obs.URL != sim.BlankURL || obs.Tab != "t3" {
		t.Fatalf("new tab shows %s on %s", obs.URL, obs.Tab)
	}
}

func TestTabOpErrors(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	for name, a := range map[string]*drivers.Action{
		"switch unknown": tabOp("switch", "t9"),
		"close unknown":  tabOp("close", "t9"),
		"bad op":         tabOp("shuffle", ""),
	} {
		_, err := tabs.Do(context.Background(), a)
		if drivers.CodeOf(err) != drivers.CodeBadInput {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestTabTargetFromOtherTabIsStale(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/1")
	link := target(t, observe(t, tabs), "link", "Home")
	do(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "new", URL: "https://sim.localhost/p/1"})
	_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Click, Target: link})
	wantCode(t, err, drivers.CodeTargetGone)
}

//go:build linux

package native_test

import (
	"context"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	"github.com/buddi-dev/buddi/drivers/native"
	"github.com/buddi-dev/buddi/messages"
)

// TestDesktopContract is the driver contract where it applies to apps
// (there are no pages, links or tabs to load): the status finds the
// helper, one Tabs per conversation, observed refs resolve, every action
// of the table is dispatched (the ones apps lack refused as not supported,
// never as bad input), and closing one conversation leaves the other's.
func TestDesktopContract(t *testing.T) {
	s := newDesktop(t, native.Apps{Browser: "google-chrome", Allowed: []string{realCalc}})
	d := s.drv
	if st := d.Status(ctx(t)); st.Driver != native.Name || !st.Found {
		t.Fatalf("Status = %+v; want the helper found", st)
	}
	a := drivertest.Open(t, d, "dt-a")
	if again, err := d.Open(ctx(t), "dt-a"); err != nil || again != a {
		t.Fatalf("opening a conversation again gave %v (%v); want its same tabs", again, err)
	}
	b := drivertest.Open(t, d, "dt-b")
	if a == b {
		t.Fatal("two conversations share their tabs")
	}
	o := s.open(a)
	if o.TakenAt.IsZero() || o.Tab == "" || len(o.Refs) == 0 {
		t.Fatalf("observation: taken %v, window %q, %d refs", o.TakenAt, o.Tab, len(o.Refs))
	}
	for ref, tg := range o.Refs {
		if tg.Ref != ref || !strings.Contains(o.Tree, "[ref="+ref+"]") {
			t.Errorf("ref %s (%+v) is not in the tree", ref, tg)
		}
	}

	for _, spec := range messages.Actions() {
		if spec.Run != messages.RunDo {
			continue
		}
		k := drivers.Kind(spec.Name)
		if k == drivers.Navigate || k == drivers.Open {
			continue // navigate needs a browser app; open is TestDesktopCalculator's
		}
		o := drivertest.Observe(t, a)
		act := &drivers.Action{Kind: k, Target: button(o, "0"), Value: "Escape"}
		if k == drivers.Fill {
			act.Target, _ = entry(o)
			act.Value = "1"
		}
		_, err := a.Do(ctx(t), act)
		if code := drivers.CodeOf(err); code == drivers.CodeBadInput {
			t.Errorf("%s was refused as bad input: %v", k, err)
		}
	}

	if _, err := b.Do(ctx(t), &drivers.Action{Kind: drivers.Open, AppID: realCalc}); err != nil {
		t.Fatalf("b opens the calculator: %v", err)
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := a.Observe(ctx(t), drivers.ObserveOptions{}); err == nil {
		t.Fatal("closed tabs still observe")
	}
	drivertest.Observe(t, b)
}

package drivertest

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// framedTargets acts on elements in a frame of the page's origin and in a
// cross-origin frame: a viewport and a full-page observation read both
// with refs unique across them and number their frames, and every action
// on a target (fill, select, click, hover, press, wait_for, submit)
// reaches the frame's document, as does a find; a ref whose frame went
// elsewhere, or whose frame was removed, is refused as stale.
func framedTargets(t *testing.T, d drivers.Driver, site Site) {
	tabs := Open(t, d, "dt-frames")
	page := site.Inputs + "frames"
	for _, side := range []string{"near", "far"} {
		t.Run(side, func(t *testing.T) {
			Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: page})
			obs := Observe(t, tabs)
			uniqueRefs(t, obs)
			word := Target(t, obs, "textbox", "Word "+side)
			if word.Frame == 0 {
				t.Fatalf("the textbox in the %s frame is numbered as on the page: %+v", side, word)
			}
			full, err := tabs.Observe(ctx(t), drivers.ObserveOptions{FullPage: true})
			if err != nil {
				t.Fatal(err)
			}
			uniqueRefs(t, full)
			Do(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: Target(t, full, "textbox", "Word "+side), Value: "hello"})
			heard(t, tabs, side+"-word=hello")
			Do(t, tabs, &drivers.Action{Kind: drivers.Select, Target: Target(t, obs, "combobox", "Pick "+side), Values: []string{"Two"}})
			heard(t, tabs, side+"-pick=Two")
			Do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: Target(t, obs, "button", "Press "+side)})
			heard(t, tabs, side+"-click=1")
			Do(t, tabs, &drivers.Action{Kind: drivers.Hover, Target: Target(t, obs, "button", "Hover "+side)})
			heard(t, tabs, side+"-hover=yes")
			Do(t, tabs, &drivers.Action{Kind: drivers.Press, Target: word, Value: "s"})
			heard(t, tabs, side+"-key=s")
			Do(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Target: word}})

			found, err := tabs.Observe(ctx(t), drivers.ObserveOptions{Find: &drivers.Query{Role: "textbox", Name: "Word " + side, Exact: true}})
			if err != nil {
				t.Fatal(err)
			}
			again := Target(t, found, "textbox", "Word "+side)
			Do(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: again, Value: "sent"})
			heard(t, tabs, side+"-word=sent")
			Do(t, tabs, &drivers.Action{Kind: drivers.Submit, Target: again})
			heard(t, tabs, side+"-sent=sent")
			_, err = tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Fill, Target: again, Value: "late"})
			if drivers.CodeOf(err) != drivers.CodeTargetGone {
				t.Fatalf("a fill in a frame that went elsewhere gave %v; want %s", err, drivers.CodeTargetGone)
			}
		})
	}
	t.Run("removed", func(t *testing.T) {
		Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: page})
		obs := Observe(t, tabs)
		word := Target(t, obs, "textbox", "Word near")
		Do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: Target(t, obs, "button", "Remove the near frame")})
		_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Fill, Target: word, Value: "late"})
		if drivers.CodeOf(err) != drivers.CodeTargetGone {
			t.Fatalf("a fill in a frame that was removed gave %v; want %s", err, drivers.CodeTargetGone)
		}
	})
}

// uniqueRefs fails unless every ref in the observation's tree is there
// once, and the frames read are numbered apart.
func uniqueRefs(t *testing.T, obs *drivers.Observation) {
	t.Helper()
	seen := map[string]bool{}
	for _, ref := range drivers.RefsIn(obs.Tree) {
		if seen[ref] {
			t.Fatalf("the ref %s is given twice in\n%s", ref, obs.Tree)
		}
		seen[ref] = true
	}
	near, far := Target(t, obs, "textbox", "Word near"), Target(t, obs, "textbox", "Word far")
	if near.Frame == far.Frame {
		t.Fatalf("both frames are numbered %d:\n%s", near.Frame, obs.Tree)
	}
}

// heard waits for the page to hear echo from a frame, and fails if it
// does not.
func heard(t *testing.T, tabs drivers.Tabs, echo string) {
	t.Helper()
	_, _ = tabs.Do(ctx(t), &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "echo " + echo + ";"}})
	if got := echoed(t, tabs); !strings.Contains(got, "echo "+echo+";") {
		t.Fatalf("the page heard\n%s\nwant echo %s", got, echo)
	}
}

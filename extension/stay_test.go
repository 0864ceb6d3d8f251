package extension_test

import (
	"slices"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
)

// TestInputThatStayedIsToldFromThePageNotByWaiting: each click and key of
// the contract's tables (drivertest.MoveCases and PopupCases) answers as
// the contract says; one that stayed on the page does so without asking
// the browser for the tab's state (what settled does after its wait for a
// load), and one that moved the page or opened a tab goes that long way.
func TestInputThatStayedIsToldFromThePageNotByWaiting(t *testing.T) {
	_, d, _ := pairedChrome(t)
	s, call, tabs := inputTabs(t, d, "stay")
	for _, c := range append(slices.Clip(drivertest.MoveCases), drivertest.PopupCases...) {
		t.Run(c.What, func(t *testing.T) {
			drivertest.Move(t, tabs, s.URL+"/inputs/", c, func() { call.infos.Store(0) })
			if n := call.infos.Load(); (c.Result == drivers.SamePage) != (n == 0) {
				t.Fatalf("%s read the tab's state from the browser %d times; want none only for input that stayed", c.What, n)
			}
		})
	}
}

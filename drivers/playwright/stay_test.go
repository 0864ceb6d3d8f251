package playwright_test

import (
	"slices"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

// TestAKeyThatStayedIsToldFromThePageNotByWaiting: each click and key of
// the contract's tables (drivertest.MoveCases, PopupCases) answers as the contract
// says; a key that stayed on the page does so without waiting for a
// navigation to start, and a key that moved the page waits for it.
func TestAKeyThatStayedIsToldFromThePageNotByWaiting(t *testing.T) {
	s := newSite(t)
	s.mux.Handle("/inputs/", drivertest.InputPages())
	tabs := openConv(t, sharedDriver(t), t.Name())
	for _, c := range append(slices.Clip(drivertest.MoveCases), drivertest.PopupCases...) {
		t.Run(c.What, func(t *testing.T) {
			var before int64
			drivertest.Move(t, tabs, s.URL+"/inputs/", c, func() { before = playwright.Waited(tabs) })
			n := playwright.Waited(tabs) - before
			switch {
			case c.Result == drivers.SamePage && n != 0:
				t.Fatalf("%s stayed on the page but waited for a navigation to start", c.What)
			case c.Kind == drivers.Press && c.Result != drivers.SamePage && n != 1:
				t.Fatalf("%s moved the page and waited %d times for it to start; want once", c.What, n)
			}
		})
	}
}

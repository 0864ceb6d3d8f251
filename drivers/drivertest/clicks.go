package drivertest

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// A ClickCase is a click on an element of InputPages' /inputs/stay and
// what its answer must say: its result, the end of the address it gives,
// and the title.
type ClickCase struct {
	What, Role, Name   string
	Result, URL, Title string
}

// ClickCases are a button that only retitles the page, and one of each
// way a click moves it: a link, a handler that assigns the address, a
// link to a part of the page, a form's button, a handler that submits the
// form (no submit event; the submission runs as a task of its own), and a
// handler that goes back.
var ClickCases = []ClickCase{
	{"a button that retitles the page", "button", "Count", drivers.SamePage, "/inputs/stay", "Clicked 1"},
	{"a link", "link", "Next page", drivers.Navigated, "/inputs/next", "Next"},
	{"a button whose handler assigns the address", "button", "Go by script", drivers.Navigated, "/inputs/next?by=script", "Next"},
	{"a link to a part of the page", "link", "To the part", drivers.Navigated, "/inputs/stay#part", "Stay"},
	{"a form's button", "button", "Search", drivers.Navigated, "/inputs/next?q=x", "Next"},
	{"a button whose handler submits its form", "button", "Send by script", drivers.Navigated, "/inputs/next?q=x", "Next"},
	{"a button whose handler goes back", "button", "Back", drivers.Navigated, "/inputs/next", "Next"},
}

// Click loads the stay page of inputs (InputPages' /inputs/ on a site)
// after its next page, so that going back has somewhere to go, observes
// it, calls before, clicks c's element, and checks the answer against c.
func Click(t *testing.T, tabs drivers.Tabs, inputs string, c ClickCase, before func()) *drivers.Outcome {
	t.Helper()
	Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: inputs + "next"})
	Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: inputs + "stay"})
	obs := Observe(t, tabs)
	before()
	out, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Target: Target(t, obs, c.Role, c.Name)})
	if err != nil {
		t.Fatalf("%s: %v", c.What, err)
	}
	if out.Result != c.Result || !strings.HasSuffix(out.URL, c.URL) || out.Title != c.Title {
		t.Fatalf("%s answered %s at %s titled %q; want %s at …%s titled %q", c.What, out.Result, out.URL, out.Title, c.Result, c.URL, c.Title)
	}
	return out
}

// clickOutcomes checks that each click of ClickCases says what it did to
// the page.
func clickOutcomes(t *testing.T, d drivers.Driver, site Site) {
	tabs := Open(t, d, "dt-clicks")
	for _, c := range ClickCases {
		t.Run(c.Name, func(t *testing.T) { Click(t, tabs, site.Inputs, c, func() {}) })
	}
}

package drivertest

import (
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// A MoveCase is a click, a key or a submit on InputPages' /inputs/stay and what
// its answer must say: its result, the end of the address it gives, and
// the title. Role and Name name the target (none: the key goes where the
// focus is).
type MoveCase struct {
	What               string
	Kind               drivers.Kind
	Role, Name, Key    string
	Result, URL, Title string
}

// MoveCases are input that stays on the page (a button that only
// retitles it, a Tab) and one of each way a click or a key moves it: a
// link, a handler that assigns the address, a link to a part of the page,
// a form's button, a handler that submits the form (no submit event; the
// submission runs as a task of its own), a handler that goes back, and
// Enter in a form's field.
var MoveCases = []MoveCase{
	{"a button that retitles the page", drivers.Click, "button", "Count", "", drivers.SamePage, "/inputs/stay", "Clicked 1"},
	{"a link", drivers.Click, "link", "Next page", "", drivers.Navigated, "/inputs/next", "Next"},
	{"a button whose handler assigns the address", drivers.Click, "button", "Go by script", "", drivers.Navigated, "/inputs/next?by=script", "Next"},
	{"a link to a part of the page", drivers.Click, "link", "To the part", "", drivers.Navigated, "/inputs/stay#part", "Stay"},
	{"a form's button", drivers.Click, "button", "Search", "", drivers.Navigated, "/inputs/next?q=x", "Next"},
	{"a button whose handler submits its form", drivers.Click, "button", "Send by script", "", drivers.Navigated, "/inputs/next?q=x", "Next"},
	{"a button whose handler goes back", drivers.Click, "button", "Back", "", drivers.Navigated, "/inputs/next", "Next"},
	{"a Tab", drivers.Press, "", "", "Tab", drivers.SamePage, "/inputs/stay", "Stay"},
	{"Enter in a form's field", drivers.Press, "textbox", "Query", "Enter", drivers.Navigated, "/inputs/next?q=x", "Next"},
}

// PopupCases are a link that opens a new tab, clicked and by Enter, and a
// form that sends itself to a new tab, by its button and submitted: the
// answer is of the new tab, which the opener's document never hears of.
// They are the contract of a driver whose Site says Popups.
var PopupCases = []MoveCase{
	{"a link that opens a new tab", drivers.Click, "link", "Next in a new tab", "", drivers.Navigated, "/inputs/next?by=tab", "Next"},
	{"Enter on a link that opens a new tab", drivers.Press, "link", "Next in a new tab", "Enter", drivers.Navigated, "/inputs/next?by=tab", "Next"},
	{"a form's button that sends it to a new tab", drivers.Click, "button", "Search in a new tab", "", drivers.Navigated, "/inputs/next?by=form", "Next"},
	{"a form submitted to a new tab", drivers.Submit, "button", "Search in a new tab", "", drivers.Navigated, "/inputs/next?by=form", "Next"},
}

// Move loads the stay page of inputs (InputPages' /inputs/ on a site)
// after its next page, so that going back has somewhere to go, observes
// it, calls before, acts as c says, and checks the answer against c.
func Move(t *testing.T, tabs drivers.Tabs, inputs string, c MoveCase, before func()) *drivers.Outcome {
	t.Helper()
	Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: inputs + "next"})
	Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: inputs + "stay"})
	obs := Observe(t, tabs)
	a := &drivers.Action{Kind: c.Kind, Value: c.Key}
	if c.Role != "" {
		a.Target = Target(t, obs, c.Role, c.Name)
	}
	before()
	out, err := tabs.Do(ctx(t), a)
	if err != nil {
		t.Fatalf("%s: %v", c.What, err)
	}
	if out.Result != c.Result || !strings.HasSuffix(out.URL, c.URL) || out.Title != c.Title {
		t.Fatalf("%s answered %s at %s titled %q; want %s at …%s titled %q", c.What, out.Result, out.URL, out.Title, c.Result, c.URL, c.Title)
	}
	return out
}

// moveOutcomes checks that each case of MoveCases says what it did to
// the page.
func moveOutcomes(t *testing.T, d drivers.Driver, site Site) {
	tabs := Open(t, d, "dt-moves")
	cases := MoveCases
	if site.Popups {
		cases = append(slices.Clip(cases), PopupCases...)
	}
	for _, c := range cases {
		t.Run(c.What, func(t *testing.T) { Move(t, tabs, site.Inputs, c, func() {}) })
	}
}

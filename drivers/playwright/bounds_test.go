package playwright_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// A page chooses its title and what it logs: a 3 MB title and megabyte
// console lines are cut before they reach an answer, or the driver's
// memory (each console line is cut as it arrives, and at most 100 are kept).
func TestPageTitlesAndConsoleLinesAreBounded(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/big", "x", `<button onclick="for (let i = 0; i < 20; i++) console.error(String(i) + 'e'.repeat(1 << 19))">Log</button>
<script>document.title = 't'.repeat(3 << 20)</script>`)
	tabs := openConv(t, d, t.Name())
	nav := navigate(t, tabs, s.URL+"/big")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Log")})
	for name, title := range map[string]string{"navigate": nav.Title, "observe": obs.Title, "tab list": obs.Tabs[0].Title, "click": out.Title} {
		if len(title) > drivers.MaxTitle+len("…") || !strings.HasPrefix(title, "ttt") {
			t.Errorf("%s: a title of %d bytes", name, len(title))
		}
	}
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "Log"}})
	con := mustDo(t, tabs, &drivers.Action{Kind: drivers.Console, MaxChars: 100000})
	logged := 0
	for _, l := range strings.Split(strings.TrimSpace(con.Text), "\n") {
		if len(l) > 1100 {
			t.Fatalf("a console line of %d bytes was kept", len(l))
		}
		if strings.Contains(l, "eeee") {
			logged++
		}
	}
	if logged != 20 {
		t.Fatalf("the console shows %d of the 20 lines logged:\n%s", logged, con.Text)
	}
}

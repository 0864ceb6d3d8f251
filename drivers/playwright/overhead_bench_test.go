package playwright_test

import (
	"slices"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

// overheadPage is the long page with a button and a field at its top.
var overheadPage = `<button onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Count</button>` +
	`<label>Note <input id="n"></label>` + longPage(benchSections)

// BenchmarkOverhead measures what buddi adds to one action over the raw
// playwright-go calls that do the same work on the same page: each
// iteration times the driver's call (as a session makes it) and the raw
// one, in alternating order, and reports the p50 and p90 of each and of
// their difference per iteration.
//
//   - observe: Observe against page.Evaluate of the same walker engine
//     (installed once in the page) with the same read arguments; engine-*
//     is the same read through the registered selector engine, the way the
//     driver reads a frame it cannot read directly; direct-share is the
//     share of the driver's reads that went straight to the engine's world.
//   - click: Do(click) on the button's ref against Locator(ref).Click;
//     engine-* is the click through the checked selector the driver
//     clicks with (the element checked against its observation).
//   - fill: Do(fill) on the field's ref against Locator(ref).Fill.
//   - press: Do(press Tab) against Keyboard().Press("Tab"): the driver
//     reads the page's navigation mark before and after the key.
//
// Pass -benchtime 50x or more: the quantiles are of the iterations run.
func BenchmarkOverhead(b *testing.B) {
	d := sharedDriver(b)
	s := newSite(b)
	s.page("/long", "Long", overheadPage)
	tabs := openConv(b, d, b.Name())
	navigate(b, tabs, s.URL+"/long")
	page, err := playwright.ActivePage(tabs)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := page.Evaluate(`() => { globalThis.__walker = ` + playwright.EngineSource(tabs) + `; return 1; }`); err != nil {
		b.Fatal(err)
	}
	b.Run("observe", func(b *testing.B) {
		opts := drivers.ObserveOptions{}
		observe(b, tabs, opts)
		body, err := playwright.ObserveBody(tabs, opts)
		if err != nil {
			b.Fatal(err)
		}
		engine := page.Locator("buddi=" + body)
		var h overhead
		direct := playwright.DirectReads(tabs)
		for b.Loop() {
			h.pair(func() { observe(b, tabs, opts) }, func() {
				if _, err := page.Evaluate(`(body) => globalThis.__walker.queryAll(document, body)[0].textContent`, body); err != nil {
					b.Fatal(err)
				}
			})
			h.engine = append(h.engine, timed(func() {
				if _, err := engine.TextContent(); err != nil {
					b.Fatal(err)
				}
			}))
		}
		h.report(b)
		// How many of the driver's reads went straight to the engine's
		// world rather than through Playwright's selectors.
		b.ReportMetric(float64(playwright.DirectReads(tabs)-direct)/float64(len(h.buddi)), "direct-share")
	})
	b.Run("click", func(b *testing.B) {
		button := target(b, observe(b, tabs, drivers.ObserveOptions{}), "button", "Count")
		click := &drivers.Action{Kind: drivers.Click, Target: button}
		loc := page.Locator(playwright.RefSelector(button.Ref))
		sel, err := playwright.CheckedSelector(tabs, button)
		if err != nil || sel == "" {
			b.Fatalf("no checked selector for the button (%v)", err)
		}
		checked := page.Locator(sel)
		var h overhead
		early := playwright.EarlyTitles(tabs)
		for b.Loop() {
			h.pair(func() { mustDo(b, tabs, click) }, func() {
				if err := loc.Click(); err != nil {
					b.Fatal(err)
				}
			})
			h.engine = append(h.engine, timed(func() {
				if err := checked.Click(); err != nil {
					b.Fatal(err)
				}
			}))
		}
		h.report(b)
		// How many of the driver's clicks answered with the title read in
		// the page as the click's handlers ended (no read after the click).
		b.ReportMetric(float64(playwright.EarlyTitles(tabs)-early)/float64(len(h.buddi)), "early-title-share")
	})
	b.Run("fill", func(b *testing.B) {
		note := target(b, observe(b, tabs, drivers.ObserveOptions{}), "textbox", "Note")
		fill := &drivers.Action{Kind: drivers.Fill, Target: note, Value: "hello world"}
		loc := page.Locator(playwright.RefSelector(note.Ref))
		var h overhead
		for b.Loop() {
			h.pair(func() { mustDo(b, tabs, fill) }, func() {
				if err := loc.Fill("hello world", pw.LocatorFillOptions{}); err != nil {
					b.Fatal(err)
				}
			})
		}
		h.report(b)
	})
	b.Run("press", func(b *testing.B) {
		tab := &drivers.Action{Kind: drivers.Press, Value: "Tab"}
		var h overhead
		for b.Loop() {
			h.pair(func() { mustDo(b, tabs, tab) }, func() {
				if err := page.Keyboard().Press("Tab"); err != nil {
					b.Fatal(err)
				}
			})
		}
		h.report(b)
	})
}

// overhead collects the times of paired calls.
type overhead struct {
	buddi, raw, diff, engine []time.Duration
}

// pair times one call of each side, the one that goes first alternating.
func (h *overhead) pair(buddi, raw func()) {
	var db, dr time.Duration
	if len(h.buddi)%2 == 0 {
		db, dr = timed(buddi), timed(raw)
	} else {
		dr, db = timed(raw), timed(buddi)
	}
	h.buddi = append(h.buddi, db)
	h.raw = append(h.raw, dr)
	h.diff = append(h.diff, db-dr)
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

func (h *overhead) report(b *testing.B) {
	for _, s := range []struct {
		name string
		ds   []time.Duration
	}{{"buddi", h.buddi}, {"raw", h.raw}, {"overhead", h.diff}, {"engine", h.engine}} {
		if len(s.ds) == 0 {
			continue
		}
		b.ReportMetric(quantile(s.ds, 0.5), s.name+"-p50-ms")
		b.ReportMetric(quantile(s.ds, 0.9), s.name+"-p90-ms")
	}
}

// quantile is the q-quantile of ds in milliseconds (nearest rank).
func quantile(ds []time.Duration, q float64) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(q*float64(len(s)) + 0.5)
	i = min(max(i-1, 0), len(s)-1)
	return float64(s[i]) / float64(time.Millisecond)
}

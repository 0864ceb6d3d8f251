package playwright_test

import (
	"log/slog"
	"os"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

// The long page: 300 sections, about 11,000 elements.
const benchSections = 300

func BenchmarkObserve(b *testing.B) {
	d := sharedDriver(b)
	s := newSite(b)
	s.page("/long", "Long", longPage(benchSections))
	tabs := openConv(b, d, b.Name())
	navigate(b, tabs, s.URL+"/long")
	modes := map[string]drivers.ObserveOptions{
		"default": {},
		"full":    {FullPage: true, MaxChars: 10 << 20},
	}
	for name, opts := range modes {
		b.Run(name, func(b *testing.B) {
			var size, refs int
			for b.Loop() {
				obs := observe(b, tabs, opts)
				size, refs = len(obs.Tree), len(obs.Refs)
			}
			b.ReportMetric(float64(size), "tree-bytes")
			b.ReportMetric(float64(refs), "refs")
		})
	}
}

// BenchmarkNavigateThenObserve is an agent's first read of a page: a
// navigate, a pause as an agent thinks (thinkPause, not timed), then an
// observe. The observe is the first engine call in the new document;
// reports the p50 of each.
func BenchmarkNavigateThenObserve(b *testing.B) {
	const thinkPause = 300 * time.Millisecond
	d := sharedDriver(b)
	s := newSite(b)
	s.page("/a", "A", longPage(benchSections/10))
	s.page("/b", "B", longPage(benchSections/10))
	tabs := openConv(b, d, b.Name())
	var navs, reads []time.Duration
	for i := 0; b.Loop(); i++ {
		url := s.URL + "/a"
		if i%2 == 1 {
			url = s.URL + "/b"
		}
		navs = append(navs, timed(func() { navigate(b, tabs, url) }))
		b.StopTimer()
		time.Sleep(thinkPause)
		b.StartTimer()
		reads = append(reads, timed(func() { observe(b, tabs, drivers.ObserveOptions{}) }))
	}
	b.ReportMetric(quantile(navs, 0.5), "navigate-p50-ms")
	b.ReportMetric(quantile(reads, 0.5), "observe-p50-ms")
}

func BenchmarkClickObserve(b *testing.B) {
	d := sharedDriver(b)
	s := newSite(b)
	s.page("/long", "Long", `<button onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Count</button>`+longPage(benchSections))
	tabs := openConv(b, d, b.Name())
	navigate(b, tabs, s.URL+"/long")
	obs := observe(b, tabs, drivers.ObserveOptions{})
	for b.Loop() {
		mustDo(b, tabs, &drivers.Action{Kind: drivers.Click, Target: target(b, obs, "button", "Count")})
		obs = observe(b, tabs, drivers.ObserveOptions{})
	}
}

// BenchmarkTyping measures what typing costs now that text goes only where
// the driver can see: a fill is one engine call that focuses, checks and
// inserts; a press with no target first finds the focused field in every
// frame (the page has two).
func BenchmarkTyping(b *testing.B) {
	d := sharedDriver(b)
	s := newSite(b)
	s.page("/form", "Form", `<label>Note <input id="n"></label><iframe src="/inner"></iframe><iframe src="/inner"></iframe>`+longPage(benchSections))
	s.page("/inner", "Inner", `<p>framed</p>`)
	tabs := openConv(b, d, b.Name())
	navigate(b, tabs, s.URL+"/form")
	obs := observe(b, tabs, drivers.ObserveOptions{})
	note := target(b, obs, "textbox", "Note")
	b.Run("fill", func(b *testing.B) {
		for b.Loop() {
			mustDo(b, tabs, &drivers.Action{Kind: drivers.Fill, Target: note, Value: "hello world"})
		}
	})
	b.Run("press-untargeted", func(b *testing.B) {
		for b.Loop() {
			mustDo(b, tabs, &drivers.Action{Kind: drivers.Press, Value: "x"})
		}
	})
	b.Run("press-targeted", func(b *testing.B) {
		for b.Loop() {
			mustDo(b, tabs, &drivers.Action{Kind: drivers.Press, Target: note, Value: "x"})
		}
	})
}

// BenchmarkRaw does the same on playwright-go directly, for the overhead.
func BenchmarkRaw(b *testing.B) {
	path, err := playwright.Find(playwright.Config{})
	if err != nil {
		b.Fatal(err)
	}
	sharedDriver(b) // installs the driver
	p, err := pw.Run(&pw.RunOptions{DriverDirectory: playwright.DriverDir(), Stdout: os.Stderr})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop()
	bctx, err := p.Chromium.LaunchPersistentContext(b.TempDir(), pw.BrowserTypeLaunchPersistentContextOptions{
		ExecutablePath: pw.String(path), Headless: pw.Bool(true), ChromiumSandbox: pw.Bool(os.Geteuid() != 0)}) // raw playwright-go runs as root unsandboxed
	if err != nil {
		b.Fatal(err)
	}
	defer bctx.Close()
	s := newSite(b)
	s.page("/long", "Long", `<button onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Count</button>`+longPage(benchSections))
	page, _ := bctx.NewPage()
	if _, err := page.Goto(s.URL + "/long"); err != nil {
		b.Fatal(err)
	}
	ai := pw.PageAriaSnapshotOptions{Mode: pw.AriaSnapshotModeAi}
	b.Run("snapshot-full", func(b *testing.B) {
		var size int
		for b.Loop() {
			tree, err := page.AriaSnapshot(ai)
			if err != nil {
				b.Fatal(err)
			}
			size = len(tree)
		}
		b.ReportMetric(float64(size), "tree-bytes")
	})
	b.Run("fill", func(b *testing.B) {
		if err := page.SetContent(`<label>Note <input id="n"></label>` + longPage(benchSections)); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := page.Locator("#n").Fill("hello world"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("click-snapshot-full", func(b *testing.B) {
		for b.Loop() {
			if err := page.GetByRole("button", pw.PageGetByRoleOptions{Name: "Count"}).Click(); err != nil {
				b.Fatal(err)
			}
			if _, err := page.AriaSnapshot(ai); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLaunch is the time from a new driver to its first page loaded:
// the launch an agent's first navigate waits for. As root, "account" runs
// the browser side as the browser account with its sandbox (re-executing
// this binary in its place, and a view of the files where needed); "self"
// is the explicit opt-in that runs it as buddi's own user without the
// sandbox: the cost of the user switch is the difference.
func BenchmarkLaunch(b *testing.B) {
	s := newSite(b)
	s.page("/first", "First", "the first page")
	for name, noSandbox := range map[string]bool{"account": false, "self": true} {
		b.Run(name, func(b *testing.B) {
			dir := b.TempDir()
			sharedDriver(b) // installs the driver; its own launch is not timed
			for b.Loop() {
				d, err := playwright.New(playwright.Config{DataDir: dir, NoSandbox: noSandbox, Headless: pw.Bool(true),
					Logger: slog.New(slog.DiscardHandler)})
				if err != nil {
					b.Fatal(err)
				}
				tabs := openConv(b, d, "c1")
				navigate(b, tabs, s.URL+"/first")
				b.StopTimer()
				_ = d.Close()
				b.StartTimer()
			}
		})
	}
}

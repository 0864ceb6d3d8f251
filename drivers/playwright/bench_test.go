package playwright_test

import (
	"os"
	"testing"

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

// BenchmarkRaw does the same on playwright-go directly, for the overhead.
func BenchmarkRaw(b *testing.B) {
	path, err := playwright.Find(playwright.Config{})
	if err != nil {
		b.Fatal(err)
	}
	sharedDriver(b) // installs the driver and sets the environment
	p, err := pw.Run(&pw.RunOptions{Stdout: os.Stderr})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop()
	bctx, err := p.Chromium.LaunchPersistentContext(b.TempDir(), pw.BrowserTypeLaunchPersistentContextOptions{
		ExecutablePath: pw.String(path), Headless: pw.Bool(true), ChromiumSandbox: pw.Bool(os.Getenv(playwright.EnvNoSandbox) != "1")})
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

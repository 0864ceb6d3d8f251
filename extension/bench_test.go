package extension_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/walker"
)

// BenchmarkObserveAndClick times the same observe and click on the same
// page through the extension (Your browser, over the extension's socket
// and chrome.debugger) and through the Playwright driver (the agents' own
// browser), one of each per iteration, both in headless Chromium here.
func BenchmarkObserveAndClick(b *testing.B) {
	s := serve(b)
	inBoth(b, extdriver.Config{}, func(b *testing.B, d drivers.Driver) { observeAndClick(b, d, s.URL+"/count") })
}

// inBoth runs bench on the extension driver (with cfg, its Caller set)
// and on the Playwright driver, each in a headless Chromium of its own.
func inBoth(b *testing.B, cfg extdriver.Config, bench func(*testing.B, drivers.Driver)) {
	b.Run("extension", func(b *testing.B) {
		_, d, _ := pairedChrome(b)
		cfg.Caller = callerOf(d)
		bench(b, extdriver.New(cfg))
	})
	b.Run("playwright", func(b *testing.B) {
		drv, err := playwright.New(playwright.Config{DataDir: b.TempDir(), NoSandbox: os.Geteuid() == 0})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = drv.Close() })
		bench(b, drv)
	})
}

func observeAndClick(b *testing.B, d drivers.Driver, url string) {
	tabs := drivertest.Open(b, d, "bench")
	drivertest.Do(b, tabs, &drivers.Action{Kind: drivers.Navigate, URL: url})
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		obs, err := tabs.Observe(ctx, drivers.ObserveOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tabs.Do(ctx, &drivers.Action{Kind: drivers.Click, Target: drivertest.Target(b, obs, "button", "Add one")}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPress times a key that stays on the page (Tab, to whatever has
// the focus), after one observation, through the extension and the
// Playwright driver: what a key costs besides the key is the reads that
// tell it moved nothing.
func BenchmarkPress(b *testing.B) {
	s := serve(b)
	inBoth(b, extdriver.Config{}, func(b *testing.B, d drivers.Driver) {
		tabs := drivertest.Open(b, d, "bench")
		drivertest.Do(b, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/count"})
		ctx := context.Background()
		if _, err := tabs.Observe(ctx, drivers.ObserveOptions{}); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for b.Loop() {
			out, err := tabs.Do(ctx, &drivers.Action{Kind: drivers.Press, Value: "Tab"})
			if err != nil {
				b.Fatal(err)
			}
			if out.Result != drivers.SamePage {
				b.Fatalf("Tab answered %q, want %q", out.Result, drivers.SamePage)
			}
		}
	})
}

// BenchmarkFrames times reads and fills on a page with two iframes in
// view, one of the page's origin and one from the other loopback name (a
// cross-origin frame, in a process of its own): a viewport observe, a
// full-page observe, and a fill in the page, in the same-origin frame and
// in the cross-origin frame, through the extension and, for comparison,
// the Playwright driver.
func BenchmarkFrames(b *testing.B) {
	mux := http.NewServeMux()
	mux.Handle("/inputs/", drivertest.InputPages())
	mux.HandleFunc("/frames", func(w http.ResponseWriter, r *http.Request) {
		far := "http://" + strings.Replace(r.Host, "127.0.0.1", "localhost", 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>Frames</title><h1>Two frames</h1><p>A page that holds two forms in frames.</p>
<label>Here <input name="here"></label>
<iframe src="/inputs/frame" title="Near form" width="400" height="80"></iframe>
<iframe src="%s/inputs/far" title="Far form" width="400" height="80"></iframe>`, far)
	})
	s := httptest.NewServer(mux)
	b.Cleanup(s.Close)
	inBoth(b, extdriver.Config{CheckField: walker.CheckTyping}, func(b *testing.B, d drivers.Driver) { framedReads(b, d, s.URL+"/frames") })
}

func framedReads(b *testing.B, d drivers.Driver, url string) {
	tabs := drivertest.Open(b, d, "bench-frames")
	drivertest.Do(b, tabs, &drivers.Action{Kind: drivers.Navigate, URL: url})
	ctx := context.Background()
	for name, opts := range map[string]drivers.ObserveOptions{"observe": {}, "observe-full": {FullPage: true}} {
		b.Run(name, func(b *testing.B) {
			medianLoop(b, func() error {
				_, err := tabs.Observe(ctx, opts)
				return err
			})
		})
	}
	obs := drivertest.Observe(b, tabs)
	for _, field := range []string{"Here", "Framed", "Far away"} {
		b.Run("fill-"+strings.ToLower(strings.Fields(field)[0]), func(b *testing.B) {
			tg, ok := obs.Refs[refNamed(obs, "textbox", field)]
			if !ok {
				b.Skipf("no textbox %q in the observation:\n%s", field, obs.Tree)
			}
			medianLoop(b, func() error {
				_, err := tabs.Do(ctx, &drivers.Action{Kind: drivers.Fill, Target: obs.Of(tg), Value: "some text"})
				return err
			})
		})
	}
}

// refNamed is the ref of the observation's element with role and name, or "".
func refNamed(obs *drivers.Observation, role, name string) string {
	for ref, tg := range obs.Refs {
		if tg.Role == role && tg.Name == name {
			return ref
		}
	}
	return ""
}

// medianLoop runs op b.N times and reports, besides the mean, the median
// time of one op (ms-median/op), which a machine busy with other work
// disturbs less.
func medianLoop(b *testing.B, op func() error) {
	var took []time.Duration
	for b.Loop() {
		t0 := time.Now()
		if err := op(); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t0))
	}
	if len(took) > 0 {
		slices.Sort(took)
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms-median/op")
	}
}

package extension_test

import (
	"context"
	"os"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

// BenchmarkObserveAndClick times the same observe and click on the same
// page through the extension (Your browser, over the extension's socket
// and chrome.debugger) and through the Playwright driver (the agents' own
// browser), one of each per iteration, both in headless Chromium here.
func BenchmarkObserveAndClick(b *testing.B) {
	s := serve(b)
	b.Run("extension", func(b *testing.B) {
		_, d, _ := pairedChrome(b)
		observeAndClick(b, extdriver.New(extdriver.Config{Caller: callerOf(d)}), s.URL+"/count")
	})
	b.Run("playwright", func(b *testing.B) {
		drv, err := playwright.New(playwright.Config{DataDir: b.TempDir(), NoSandbox: os.Geteuid() == 0})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = drv.Close() })
		observeAndClick(b, drv, s.URL+"/count")
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

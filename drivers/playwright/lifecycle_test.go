package playwright_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

func TestRelaunchAfterDeathAndCloseKillsTheBrowser(t *testing.T) {
	dir := browsertest.TempDir(t)
	d := browsertest.New(t, func(c *playwright.Config) { c.DataDir = dir })
	if st := d.Status(testCtx(t)); !st.Running || !st.Found || !st.Headless || st.Problem != "" || st.Driver != "playwright" {
		t.Fatalf("status: %+v", st)
	}
	if fi, err := os.Stat(filepath.Join(dir, "browser", "profile")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("profile dir: %v %v", fi.Mode(), err)
	}
	tabs := openConv(t, d, "c1")
	pids := browsertest.PIDs(dir)
	if len(pids) == 0 {
		t.Fatal("no browser process found for the profile")
	}
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL) // the browser this test started
	}
	deadline := time.Now().Add(20 * time.Second)
	for d.Status(testCtx(t)).Running && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := tabs.Observe(testCtx(t), drivers.ObserveOptions{}); err == nil {
		t.Fatal("the dead browser's tabs still observe")
	}
	again := openConv(t, d, "c1")
	if again == tabs {
		t.Fatal("Open returned the dead browser's tabs")
	}
	if obs := observe(t, again, drivers.ObserveOptions{}); obs.URL != "about:blank" || obs.Tab != "t1" {
		t.Fatalf("after relaunch: %+v", obs)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if left := browsertest.PIDs(dir); len(left) != 0 {
		t.Fatalf("browser processes left after Close: %v", left)
	}
	_, err := d.Open(context.Background(), "c2")
	wantCode(t, err, drivers.CodeNoBrowser)
}

func TestNewValidates(t *testing.T) {
	for name, cfg := range map[string]playwright.Config{
		"no dir":       {},
		"relative dir": {DataDir: "data"},
		"channel":      {DataDir: "/tmp/x", Channel: "netscape"},
	} {
		if _, err := playwright.New(cfg); err == nil {
			t.Errorf("%s: New accepted %+v", name, cfg)
		}
	}
	if p, err := playwright.Find(playwright.Config{}); err != nil || p == "" {
		t.Fatalf("Find: %q %v", p, err)
	}
	_, err := playwright.Find(playwright.Config{Channel: "msedge-dev"})
	wantCode(t, err, drivers.CodeNoBrowser)
}

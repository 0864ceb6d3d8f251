package playwright_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/messages"
)

// A browser killed under two conversations comes back by itself: each
// conversation's next call is told so (browser_restarted), and the one
// after finds its tab, by id, at the page it had; the log says it died,
// with the driver's last words about the browser process. Close then
// kills the browser, and nothing opens after it.
func TestADeadBrowserComesBackWithEveryConversationsTabs(t *testing.T) {
	dir := browsertest.TempDir(t)
	var logs lockedBuffer
	d := browsertest.New(t, func(c *playwright.Config) {
		c.DataDir = dir
		c.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	if st := d.Status(testCtx(t)); !st.Running || !st.Found || !st.Headless || st.Problem != "" || st.Driver != "playwright" ||
		st.Launch == nil || st.Launch.State != messages.LaunchReady {
		t.Fatalf("status: %+v", st)
	}
	if fi, err := os.Stat(filepath.Join(dir, "browser", "profile")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("profile dir: %v %v", fi.Mode(), err)
	}
	s := newSite(t)
	s.page("/one", "One", `<button>one</button>`)
	s.page("/two", "Two", `<button>two</button>`)
	pages := map[string]string{"c1": s.URL + "/one", "c2": s.URL + "/two"}
	convs := map[string]drivers.Tabs{}
	for conv, url := range pages {
		convs[conv] = openConv(t, d, conv)
		navigate(t, convs[conv], url)
	}
	pids := browsertest.PIDs(dir)
	if len(pids) == 0 {
		t.Fatal("no browser process found for the profile")
	}
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL) // the browser this test started
	}
	for conv, tabs := range convs {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Scroll, DeltaY: 100})
		wantCode(t, err, drivers.CodeRestarted)
		obs := observe(t, tabs, drivers.ObserveOptions{})
		if obs.URL != pages[conv] || obs.Tab != "t1" || len(obs.Tabs) != 1 {
			t.Fatalf("%s after the restart: tab %s at %s of %d tabs, want t1 at %s", conv, obs.Tab, obs.URL, len(obs.Tabs), pages[conv])
		}
	}
	if st := d.Status(testCtx(t)); !st.Running || st.Launch.Restarts != 1 {
		t.Fatalf("status after the restart: %+v %+v", st, st.Launch)
	}
	for end := time.Now().Add(time.Minute); !strings.Contains(logs.String(), "last words"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("no last words of the browser in the log:\n%s", logs.String())
		}
	}
	if words := logs.String()[strings.Index(logs.String(), "last words"):]; !strings.Contains(words, "signal=SIGKILL") {
		t.Fatalf("the browser's last words do not say how it ended: %s", words)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if left := browsertest.PIDs(dir); len(left) != 0 {
		t.Fatalf("browser processes left after Close: %v", left)
	}
	_, err := d.Open(context.Background(), "c3")
	wantCode(t, err, drivers.CodeNoBrowser)
}

// A call made after the browser's context closed and before the driver
// mourned it (told each conversation, started another) is told the
// browser restarted, not that it is starting: that is what happened to
// its pages. Here the mourning is held off while the call is made.
func TestACallBeforeTheDeadBrowserIsMournedIsToldItRestarted(t *testing.T) {
	dir := browsertest.TempDir(t)
	d := browsertest.New(t, func(c *playwright.Config) { c.DataDir = dir })
	s := newSite(t)
	s.page("/one", "One", `<button>one</button>`)
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/one")
	dead, release := playwright.HoldMourning(d)
	held := true
	defer func() {
		if held {
			release()
		}
	}()
	for _, pid := range browsertest.PIDs(dir) {
		_ = syscall.Kill(pid, syscall.SIGKILL) // the browser this test started
	}
	for !dead() {
		select {
		case <-testCtx(t).Done():
			t.Fatal("the browser never read as dead")
		case <-time.After(10 * time.Millisecond):
		}
	}
	told := make(chan error, 1)
	go func() {
		_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Scroll, DeltaY: 100})
		told <- err
	}()
	select {
	case err := <-told: // answered before the mourning: it must still be the news
		wantCode(t, err, drivers.CodeRestarted)
		return
	case <-time.After(100 * time.Millisecond):
	}
	held = false
	release()
	wantCode(t, <-told, drivers.CodeRestarted)
	if obs := observe(t, tabs, drivers.ObserveOptions{}); obs.URL != s.URL+"/one" {
		t.Fatalf("after the restart the tab is at %s", obs.URL)
	}
}

// A call made at the very moment the driver finds its browser dead (here:
// from the log line that says so) is told the browser restarted, not that
// it is still starting: each conversation has its news before the browser
// reads as dead.
func TestACallAsTheBrowserIsFoundDeadIsToldItRestarted(t *testing.T) {
	dir := browsertest.TempDir(t)
	// armed holds the conversations once the test is about to kill the
	// browser: the log line of a death before that (the watchdog's, on a
	// loaded machine) finds nothing to call.
	var armed struct {
		sync.Mutex
		convs []drivers.Tabs
	}
	told := make(chan error, 2)
	onDeath := func() {
		armed.Lock()
		convs := armed.convs
		armed.convs = nil
		armed.Unlock()
		for _, tabs := range convs {
			_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Scroll, DeltaY: 100})
			told <- err
		}
	}
	d := browsertest.New(t, func(c *playwright.Config) {
		c.DataDir = dir
		c.Logger = slog.New(onMessage{"the browser stopped; starting it again", onDeath})
	})
	s := newSite(t)
	s.page("/one", "One", `<button>one</button>`)
	var convs []drivers.Tabs
	for _, conv := range []string{"c1", "c2"} {
		tabs := openConv(t, d, conv)
		navigate(t, tabs, s.URL+"/one")
		convs = append(convs, tabs)
	}
	armed.Lock()
	armed.convs = convs
	armed.Unlock()
	for _, pid := range browsertest.PIDs(dir) {
		_ = syscall.Kill(pid, syscall.SIGKILL) // the browser this test started
	}
	for range convs {
		select {
		case err := <-told:
			wantCode(t, err, drivers.CodeRestarted)
		case <-testCtx(t).Done():
			t.Fatal("the driver never said the browser stopped")
		}
	}
	for _, tabs := range convs {
		if obs := observe(t, tabs, drivers.ObserveOptions{}); obs.URL != s.URL+"/one" {
			t.Fatalf("after the restart the tab is at %s", obs.URL)
		}
	}
}

// onMessage is a log handler that runs f on each record whose message is msg.
type onMessage struct {
	msg string
	f   func()
}

func (h onMessage) Enabled(context.Context, slog.Level) bool { return true }
func (h onMessage) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.f()
	}
	return nil
}
func (h onMessage) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h onMessage) WithGroup(string) slog.Handler      { return h }

// Start returns at once and the browser starts in the background; an act
// that may wait less than the launch takes is told to try again (a
// sentence with when), and one that waits finds it ready.
func TestTheBrowserStartsInTheBackground(t *testing.T) {
	cfg := browsertest.Config(t)
	d, err := playwright.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if st := d.Launch(); st.State != messages.LaunchIdle {
		t.Fatalf("before Start: %+v", st)
	}
	d.Start()
	if st := d.Launch(); st.State != messages.LaunchStarting {
		t.Fatalf("after Start: %+v", st)
	}
	short, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err = d.Ready(short)
	wantCode(t, err, drivers.CodeStarting)
	if !strings.Contains(err.Error(), "try again in about") {
		t.Fatalf("the refusal does not say when to try again: %v", err)
	}
	if _, err := d.Ready(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if st := d.Launch(); st.State != messages.LaunchReady || st.TookMs <= 0 {
		t.Fatalf("once ready: %+v", st)
	}
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

// lockedBuffer is a log's buffer that the driver's goroutines write and
// the test reads.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

// benchSite serves a page with a link to itself and a long document.
func benchSite(b *testing.B) *httptest.Server {
	var doc strings.Builder
	doc.WriteString(`<!doctype html><title>Bench</title><h1>Bench</h1><a href="#top" id="top">Top</a>`)
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&doc, `<h2>Section %d</h2><p>Paragraph %d with <a href="#s%d">a link %d</a> and some words.</p>`, i, i, i, i)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, doc.String())
	}))
	b.Cleanup(srv.Close)
	return srv
}

// benchDaemon serves the bench page and starts buddi with real Chromium
// and an agent, whose token it returns.
func benchDaemon(b *testing.B) (*httptest.Server, *daemontest.Daemon, string) {
	srv := benchSite(b)
	b.Setenv("BUDDI_PREVIEW_ORIGINS", srv.URL)
	cfg, err := config.FromEnv(os.Getenv)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Driver = "playwright"
	d := daemontest.Start(b, "", daemon.Options{Config: cfg})
	return srv, d, d.AddAgent(b, "bench", false)
}

// freshTask releases old (if any), starts a task for conv and opens page.
func freshTask(b *testing.B, d *daemontest.Daemon, tok, old, conv, page string) {
	if old != "" {
		d.Must(b, "POST", "/api/browser/release", in{"conversation": old})
		for i := 0; strings.Contains(string(d.Must(b, "GET", "/api/browser/sessions", nil).Result), `"`+old+`"`); i++ {
			if i == 500 {
				b.Fatal("the released session did not go away")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	d.Task(b, "bench", conv, 80)
	if r := d.Act(b, tok, conv, in{"action": "navigate", "url": page}); !r.OK {
		b.Fatalf("navigate: %s %s", r.Code(), r.Error.Message)
	}
}

func report(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkHTTPObserve is observe through the whole stack: HTTP, controller,
// session actor, driver, Chromium.
func BenchmarkHTTPObserve(b *testing.B) { httpBench(b, false) }

// BenchmarkHTTPClickObserve is a same-page click followed by an observe.
func BenchmarkHTTPClickObserve(b *testing.B) { httpBench(b, true) }

func httpBench(b *testing.B, click bool) {
	srv, d, tok := benchDaemon(b)
	freshTask(b, d, tok, "", "c1", srv.URL+"/")
	lat := make([]time.Duration, 0, b.N)
	steps := 2
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if steps >= 76 { // stay inside the 80-step budget
			b.StopTimer()
			freshTask(b, d, tok, "c1", "c1", srv.URL+"/")
			steps = 2
			b.StartTimer()
		}
		start := time.Now()
		obs := d.Observe(b, tok, "c1")
		steps++
		if click {
			ref := daemontest.Ref(b, obs, "link", "Top")
			if r := d.Act(b, tok, "c1", in{"action": "click", "observation": daemontest.ID(obs), "target": in{"ref": ref}}); !r.OK {
				b.Fatalf("click: %s", r.Code())
			}
			d.Observe(b, tok, "c1")
			steps += 2
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	report(b, lat)
}

// BenchmarkRawPlaywrightObserve is the same observation on playwright-go
// directly: the floor our stack adds to.
func BenchmarkRawPlaywrightObserve(b *testing.B) { rawBench(b, false) }

// BenchmarkRawPlaywrightClickObserve is click+observe on playwright-go directly.
func BenchmarkRawPlaywrightClickObserve(b *testing.B) { rawBench(b, true) }

func rawBench(b *testing.B, click bool) {
	srv := benchSite(b)
	p, err := pw.Run(&pw.RunOptions{DriverDirectory: playwright.DriverDir(), SkipInstallBrowsers: true})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop()
	args := []string{"--disable-background-networking", "--disable-component-update", "--no-first-run"}
	if os.Geteuid() == 0 { // raw playwright-go runs as root, where Chromium needs this
		args = append(args, "--no-sandbox")
	}
	br, err := p.Chromium.Launch(pw.BrowserTypeLaunchOptions{ExecutablePath: pw.String("/usr/bin/chromium"), Args: args})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	page, err := br.NewPage()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := page.Goto(srv.URL + "/"); err != nil {
		b.Fatal(err)
	}
	snap := func() string {
		s, err := page.AriaSnapshot(pw.PageAriaSnapshotOptions{Mode: pw.AriaSnapshotModeAi})
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		s := snap()
		if click {
			ref := refOf(s, `link "Top"`)
			if err := page.GetByRef(ref).Click(); err != nil {
				b.Fatal(err)
			}
			snap()
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	report(b, lat)
}

func refOf(snapshot, prefix string) string {
	for _, line := range strings.Split(snapshot, "\n") {
		if i := strings.Index(line, prefix); i >= 0 {
			if j := strings.Index(line, "[ref="); j >= 0 {
				k := strings.Index(line[j:], "]")
				return line[j+5 : j+k]
			}
		}
	}
	return "e1"
}

package loadtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/loadtest"
)

// TestARunAgainstATargetReportsItsServerCPU drives a buddi over 127.0.0.1
// as --target does, and reads what the target's own process spent from its
// /metrics: in the JSON, in the table apart from the harness's line, and
// second by second in the HTML report's plot of CPU. The
// target runs in the test's process, so its figure is this process's: the
// test checks the figure is read and reported, not its size.
func TestARunAgainstATargetReportsItsServerCPU(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	cfg := loadtest.Config{Target: "http://" + d.Addr(), OwnerToken: d.Owner, Conversations: 8, Duration: time.Second, OwnerRate: 2, Seed: 7}
	rep, err := loadtest.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if rep.ActsOK == 0 || rep.ServerCPU <= 0 || rep.ServerCPUPerAct <= 0 {
		_ = rep.WriteTable(os.Stderr)
		t.Fatalf("%d acts ok, server CPU %v s and %v µs per act; want all above 0", rep.ActsOK, rep.ServerCPU, rep.ServerCPUPerAct)
	}
	for _, line := range []string{"server cpu ", " (the target's own process; harness excluded)", " (the harness alone)\n"} {
		if !strings.Contains(table.String(), line) {
			t.Errorf("the table lacks %q:\n%s", line, table.String())
		}
	}
	plotted := false
	for _, s := range rep.Timeline {
		plotted = plotted || s.Server > 0
	}
	var page strings.Builder
	if err := rep.WriteHTML(&page); err != nil || !plotted || !strings.Contains(page.String(), "CPU of the harness and of the targets&#39; own processes") {
		t.Fatalf("no second of the timeline has the server's CPU (%v), or the page does not plot it (%v):\n%s", plotted, err, page.String())
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var out struct {
		PerAct  float64 `json:"serverCpuMicrosecondsPerAct"`
		Seconds float64 `json:"serverCpuSeconds"`
	}
	if err := json.Unmarshal(b, &out); err != nil || out.PerAct != rep.ServerCPUPerAct || out.Seconds != rep.ServerCPU {
		t.Fatalf("the JSON gives %+v (%v), the report %v µs per act and %v s", out, err, rep.ServerCPUPerAct, rep.ServerCPU)
	}
}

// TestATargetWithoutTheFigureGetsANoteNotAGuess drives a buddi through a
// proxy that takes process_cpu_seconds_total out of its /metrics, as a
// build before it answered: the report says so in one note and gives no
// server CPU, in the table or the JSON.
func TestATargetWithoutTheFigureGetsANoteNotAGuess(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	proxy := proxyTo(t, d.Addr())
	proxy.ModifyResponse = func(res *http.Response) error {
		if res.Request.URL.Path != "/metrics" {
			return nil
		}
		page, err := io.ReadAll(res.Body)
		res.Body.Close()
		var kept []string
		for line := range strings.SplitSeq(string(page), "\n") {
			if !strings.Contains(line, "process_cpu_seconds_total") {
				kept = append(kept, line)
			}
		}
		older := strings.Join(kept, "\n")
		res.Body, res.ContentLength = io.NopCloser(strings.NewReader(older)), int64(len(older))
		res.Header.Del("Content-Length")
		return err
	}
	front := httptest.NewServer(proxy)
	defer front.Close()
	cfg := loadtest.Config{Target: front.URL, OwnerToken: d.Owner, Conversations: 4, Duration: time.Second, Seed: 7}
	rep, err := loadtest.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	_ = rep.WriteTable(&table)
	b, _ := json.Marshal(rep)
	if rep.ActsOK == 0 || rep.ServerCPU != 0 || strings.Contains(table.String(), "server cpu") || bytes.Contains(b, []byte("serverCpu")) ||
		strings.Count(table.String(), "has no process_cpu_seconds_total") != 1 || !strings.Contains(table.String(), "buddi's own is on its host") {
		t.Fatalf("a target without the figure: %d acts ok, server CPU %v s; the table:\n%s", rep.ActsOK, rep.ServerCPU, table.String())
	}
}

// TestAnInProcessRunGivesNoServerCPU: buddi's CPU is then the harness's
// process's, on the one line that says so, and no figure claims to be the
// server's alone.
func TestAnInProcessRunGivesNoServerCPU(t *testing.T) {
	rep, err := loadtest.Run(context.Background(), loadtest.Config{Conversations: 4, Duration: time.Second, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	_ = rep.WriteTable(&table)
	if rep.ServerCPU != 0 || strings.Contains(table.String(), "server cpu") || !strings.Contains(table.String(), "(harness and in-process buddi)") {
		t.Fatalf("an in-process run reports server CPU %v s:\n%s", rep.ServerCPU, table.String())
	}
	b, _ := json.Marshal(rep)
	if bytes.Contains(b, []byte("serverCpu")) {
		t.Fatalf("the JSON of an in-process run names a server CPU: %s", b)
	}
}

// proxyTo is a reverse proxy to the buddi at addr, for a test to count or
// change what passes between the harness and it.
func proxyTo(t *testing.T, addr string) *httputil.ReverseProxy {
	target, tr := &url.URL{Scheme: "http", Host: addr}, &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &httputil.ReverseProxy{Transport: tr, Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) }}
}

package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestLoadTestRefusesWhatItCannotRun(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"hands remote":     {[]string{"--target", "http://127.0.0.1:9", "--owner-token", "bo_x", "--hands", "2"}, "--hands needs the in-process buddi"},
		"playwright > 8":   {[]string{"--driver", "playwright", "--conversations", "9"}, "8 or fewer"},
		"unknown driver":   {[]string{"--driver", "webkit"}, `"webkit" is not known`},
		"think backwards":  {[]string{"--think", "50ms-10ms"}, "from a shorter to a longer"},
		"crash remote":     {[]string{"--target", "http://127.0.0.1:9", "--owner-token", "bo_x", "--crash-rate", "0.1"}, "needs the in-process daemon"},
		"target, no token": {[]string{"--target", "http://127.0.0.1:9", "--data", t.TempDir()}, "needs the owner token"},
		"token, no target": {[]string{"--owner-token", "bo_x"}, "--owner-token needs --target"},
		"more tokens":      {[]string{"--target", "http://127.0.0.1:9", "--owner-token", "bo_x,bo_y"}, "gives 2 tokens but --target names 1"},
		// Repeated and comma-separated targets add up: three members, two tokens.
		"members, fewer tokens": {[]string{"--target", "http://127.0.0.1:9", "--target", "http://127.0.0.1:10,http://127.0.0.1:11",
			"--owner-token", "bo_x", "--owner-token", "bo_y"}, "names 3 members of a cluster but --owner-token gives 2 tokens"},
		"members, token from --data": {[]string{"--target", "http://127.0.0.1:9,http://127.0.0.1:10", "--data", t.TempDir()}, "gives 0 tokens"},
		"empty target":               {[]string{"--target", "http://127.0.0.1:9,", "--owner-token", "bo_x"}, "names an empty target"},
		"empty token":                {[]string{"--target", "http://127.0.0.1:9,http://127.0.0.1:10", "--owner-token", "bo_x,"}, "has an empty token"},
		"member twice": {[]string{"--target", "http://127.0.0.1:9", "--target", "http://127.0.0.1:9", "--owner-token", "bo_x,bo_y"},
			"--target http://127.0.0.1:9 is named twice"},
		"members with hands": {[]string{"--target", "http://127.0.0.1:9,http://127.0.0.1:10", "--owner-token", "bo_x,bo_y", "--hands", "1"},
			"--hands needs the in-process buddi"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, nil, append([]string{"loadtest"}, c.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", r.code, r.stderr, c.want)
			}
		})
	}
}

func TestLoadTestHelpNamesItsFlags(t *testing.T) {
	r := runCLI(t, nil, "loadtest", "--help")
	for _, text := range []string{"members of one cluster", "in the same order as --target"} {
		if !strings.Contains(r.stdout, text) {
			t.Errorf("--help does not say %q of several targets", text)
		}
	}
	for _, flag := range []string{"-conversations", "-duration", "-think", "-owner-rate", "-crash-rate", "-driver",
		"-target", "-owner-token", "-hands", "-link-kbps", "-idle", "-json", "-cpuprofile", "-trace"} {
		if !strings.Contains(r.stdout, flag) {
			t.Errorf("--help does not mention %s", flag)
		}
	}
}

// TestLoadTestRunsAndReportsJSON is a one-second run of the real command.
func TestLoadTestRunsAndReportsJSON(t *testing.T) {
	r := runCLI(t, nil, "loadtest", "--conversations", "8", "--duration", "1s", "--owner-rate", "4", "--crash-rate", "0.02", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	var rep struct {
		ActsOK     int64 `json:"actsOk"`
		Invariants []struct {
			Name, Status string
		} `json:"invariants"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("--json printed something else: %v\n%s", err, r.stdout)
	}
	if rep.ActsOK == 0 || len(rep.Invariants) < 7 {
		t.Fatalf("the report has %d acts ok and %d invariants", rep.ActsOK, len(rep.Invariants))
	}
	for _, inv := range rep.Invariants {
		if inv.Status == "fail" {
			t.Errorf("invariant %s failed", inv.Name)
		}
	}
}

// TestLoadTestWritesARuntimeTrace: --trace leaves an execution trace of
// the run that go tool trace reads (it opens with its version header).
func TestLoadTestWritesARuntimeTrace(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.trace")
	r := runCLI(t, nil, "loadtest", "--conversations", "4", "--duration", "1s", "--owner-rate", "0", "--trace", out)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^go 1\.\d+ trace\x00`).Match(b) || len(b) < 1<<10 {
		t.Fatalf("%s is not an execution trace of the run (%d bytes, opens %q)", out, len(b), b[:min(len(b), 16)])
	}
}

// TestLoadTestWritesASelfContainedHTMLReport runs a short load test with
// --report and checks the page: a plot for each part over time, the
// invariants, and nothing it would load from anywhere.
func TestLoadTestWritesASelfContainedHTMLReport(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.html")
	r := runCLI(t, nil, "loadtest", "--conversations", "8", "--duration", "3s", "--owner-rate", "4", "--crash-rate", "0.05", "--report", out)
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	parts := map[string]string{"throughput": "acts/s", "latency": "p99", "actions-p99": "observe", "actions-rate": "observe",
		"faults-rate": "<span>", "faults-p99": "<span>", "cpu": "cores", "heap": "heap"}
	for id, key := range parts {
		i := strings.Index(page, `<h2 id="`+id+`">`)
		if i < 0 {
			t.Errorf("the page has no %s plot", id)
			continue
		}
		part := page[i:]
		if j := strings.Index(part[1:], "<h2"); j > 0 {
			part = part[:j+1]
		}
		if !strings.Contains(part, "<svg") || !strings.Contains(part, "<polyline") || !strings.Contains(part, key) {
			t.Errorf("the %s plot has no series %q:\n%s", id, key, part)
		}
	}
	for _, inv := range []string{`id="invariants"`, "no_replay", "stop_not_lost", "stale_refused"} {
		if !strings.Contains(page, inv) {
			t.Errorf("the page lacks %q of the invariants", inv)
		}
	}
	// Nothing to fetch: no attribute, style or script that names a URL.
	for _, external := range []string{`="http`, `="//`, "src=", "href=", "<link", "<script", "@import", "url("} {
		if strings.Contains(page, external) {
			t.Errorf("the page refers to something outside it: %q", external)
		}
	}
}

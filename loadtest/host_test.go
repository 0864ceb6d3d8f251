package loadtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The host's busy time is user, nice, system, irq and softirq of the line
// of all CPUs, in hundredths of a second; idle and iowait are not busy,
// and steal is kept apart. Anything else is no reading.
func TestHostCPUIsReadFromTheLineOfAllCPUs(t *testing.T) {
	stat := "cpu  2306401 23309 563864 1228744 19930 700 65999 4652 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1\n"
	h := parseHostCPU([]byte(stat))
	if want := (2306401.0 + 23309 + 563864 + 700 + 65999) / 100; !h.ok || h.busy != want || h.steal != 46.52 {
		t.Fatalf("read %+v, want busy %v s and steal 46.52 s", h, want)
	}
	for _, bad := range []string{"", "cpu0 1 2 3 4 5 6 7 8\n", "cpu 1 2 3 4 5 6 7\n", "cpu 1 2 x 4 5 6 7 8\n", "cpu 1 2 -3 4 5 6 7 8\n", "intr 1\ncpu 1 2 3 4 5 6 7 8\n"} {
		if h := parseHostCPU([]byte(bad)); h.ok {
			t.Errorf("%q read as %+v, want no reading", bad, h)
		}
	}
}

// What the other processes used is the host's busy time less this
// process's and the targets' on this host; never below 0, and nothing
// without both readings.
func TestOthersAreTheHostLessThisProcessAndTheTargets(t *testing.T) {
	then, now := hostCPU{busy: 100, steal: 1, ok: true}, hostCPU{busy: 103, steal: 1.5, ok: true}
	for _, c := range []struct {
		name              string
		then, now         hostCPU
		own, server, secs float64
		others, steal     float64
		ok                bool
	}{
		{"this process alone", then, now, 3, 0, 2, 0, 0.25, true},
		{"a core of others", then, now, 1, 0, 2, 1, 0.25, true},
		{"the targets too", then, now, 1, 1, 2, 0.5, 0.25, true},
		{"readings not at one instant", then, now, 3.2, 0, 2, 0, 0.25, true},
		{"no reading at the start", hostCPU{}, now, 1, 0, 2, 0, 0, false},
		{"no reading now", then, hostCPU{}, 1, 0, 2, 0, 0, false},
		{"no time", then, now, 1, 0, 0, 0, 0, false},
	} {
		others, steal, ok := othersCores(c.then, c.now, c.own, c.server, c.secs)
		if ok != c.ok || others != c.others || steal != c.steal {
			t.Errorf("%s: others %v, steal %v, ok %v; want %v, %v, %v", c.name, others, steal, ok, c.others, c.steal, c.ok)
		}
	}
}

// The targets' CPU is taken from the host's only when they are on it and
// said it; on it and silent, the others cannot be told from them.
func TestTargetsCPUIsTakenFromTheHostsWhenOnIt(t *testing.T) {
	for _, c := range []struct {
		name                    string
		inProcess, onHost, read bool
		server                  float64
		known                   bool
	}{
		{"in process", true, true, false, 0, true},
		{"on this host, said", false, true, true, 1.5, true},
		{"on this host, silent", false, true, false, 0, false},
		{"elsewhere, said", false, false, true, 0, true},
		{"elsewhere, silent", false, false, false, 0, true},
	} {
		server, known := targetsOnHost(c.inProcess, c.onHost, c.read, 1.5)
		if server != c.server || known != c.known {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, server, known, c.server, c.known)
		}
	}
}

// Only targets at loopback addresses count as on this host.
func TestTargetsOnThisHostAreAtLoopback(t *testing.T) {
	for _, c := range []struct {
		targets []string
		want    bool
	}{
		{[]string{"http://127.0.0.1:7777"}, true},
		{[]string{"http://localhost:7777", "http://[::1]:7778", "http://127.0.0.2:7779"}, true},
		{[]string{"http://127.0.0.1:7777", "http://10.0.0.2:7777"}, false},
		{[]string{"http://buddi.example:7777"}, false},
		{[]string{"://"}, false},
		{nil, false},
	} {
		if got := onThisHost(c.targets); got != c.want {
			t.Errorf("onThisHost(%q) = %v, want %v", c.targets, got, c.want)
		}
	}
}

// The host's load over the steady seconds: the average weighs each
// interval by its length, the most is one second's, and the seconds above a
// fifth of a core are counted; no second, no report.
func TestHostLoadIsWeighedBySeconds(t *testing.T) {
	var h hostTally
	if h.report() != nil {
		t.Fatal("a run with no steady second reported a host load")
	}
	h.add(0.1, 0, 1)
	h.add(1.0, 0.5, 2)
	h.add(0.3, 0, 1)
	r := h.report()
	if r == nil || r.Seconds != 4 || r.Others != (0.1+2+0.3)/4 || r.OthersMax != 1 || r.NoisySeconds != 2 || r.Steal != 0.25 {
		t.Fatalf("host load %+v, want 4 s, 0.6 cores on average, 1 at most, 2 noisy, steal 0.25", r)
	}
}

// A run while another process spins on this host says so: its report and
// table give the other processes' cores, and the seconds they held more
// than a fifth of one.
func TestARunSaysWhatElseRanOnTheHost(t *testing.T) {
	if !readHostCPU().ok {
		t.Skip("this host has no /proc/stat")
	}
	ctx, cancel := context.WithCancel(context.Background())
	spin := exec.CommandContext(ctx, "sh", "-c", "while :; do :; done")
	if err := spin.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = spin.Wait() }()
	rep, err := Run(context.Background(), Config{Conversations: 20, Duration: 4 * time.Second, StaleRate: 0.05, Seed: 3, ThinkMin: 10 * time.Millisecond, ThinkMax: 30 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if h := rep.Host; h == nil || h.Others < 0.3 || h.NoisySeconds == 0 || !strings.Contains(table.String(), "other processes on this host") {
		if testing.Verbose() {
			_ = rep.WriteTable(os.Stderr)
		}
		t.Fatalf("with a spinning process beside it, the run's host load is %+v; its table:\n%s", h, table.String())
	}
}

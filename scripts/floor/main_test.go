package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// TestTheFloorMeasuresABareServerInItsOwnProcess builds the command, runs
// it briefly against its own server, and reads what it reports: answered
// requests, their latency, and the CPU of both processes.
func TestTheFloorMeasuresABareServerInItsOwnProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the floor reads the server's CPU from /proc")
	}
	bin := filepath.Join(t.TempDir(), "floor")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-conns", "8", "-rate", "0", "-warm", "200ms", "-duration", "1s", "-server-procs", "2")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second // a server left behind holds stderr open: do not wait on it for ever
	if err := cmd.Run(); err != nil {
		t.Fatalf("floor: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	number := func(re string) float64 {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no line matching %q in:\n%s", re, out)
		}
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if n := number(`requests (\d+) in [\d.]+ s: \d+/s, 0 failed`); n < 10 {
		t.Errorf("only %v requests answered in a second of 8 unthrottled connections", n)
	}
	if p := number(`latency p50 ([\d.]+) ms`); p <= 0 {
		t.Errorf("latency p50 %v ms", p)
	}
	// A second of requests without pause costs the server some CPU, which
	// is read from its process and must show (in ticks of 10 ms).
	if c := number(`server cpu ([\d.]+) µs per request`); c <= 0 {
		t.Errorf("server cpu %v µs per request: the server's process was not read", c)
	}
	if c := number(`client cpu ([\d.]+) µs per request`); c <= 0 {
		t.Errorf("client cpu %v µs per request", c)
	}
	// The server's process ended with the command: no process left runs
	// this build of it.
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && bytes.HasPrefix(b, []byte(bin+"\x00-serve")) {
			t.Errorf("the server is still running: %s", p)
		}
	}
}

// TestBadFlagsSayWhatToGive runs the command with a rate below zero.
func TestBadFlagsSayWhatToGive(t *testing.T) {
	err := run(config{conns: 1, rate: -1, measure: 1, answer: 100})
	if err == nil || !regexp.MustCompile(`give -conns of at least 1, a -rate of 0 or more`).MatchString(err.Error()) {
		t.Fatalf("err = %v", err)
	}
}

// TestStatCPUReadsUserAndSystemTicks reads made-up stat lines, one whose
// name holds a space and a parenthesis, and this process's own.
func TestStatCPUReadsUserAndSystemTicks(t *testing.T) {
	for _, c := range []struct {
		line string
		want time.Duration
		ok   bool
	}{
		{"42 (floor) S 1 42 42 0 -1 4194560 100 0 0 0 250 31 0 0 20 0 8 0 5 1 1", 2810 * time.Millisecond, true},
		{"42 (a b) c)) R 1 42 42 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 8 0 5 1 1", 100 * time.Millisecond, true},
		{"42 (floor) S 1 42 42 0 -1 4194560 100 0 0 0 x 3 0 0", 0, false},
		{"42 (floor) S 1 42", 0, false},
		{"no name here", 0, false},
	} {
		got, err := statCPU(c.line)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("statCPU(%q) = %v, %v; want %v (ok %v)", c.line, got, err, c.want, c.ok)
		}
	}
	if runtime.GOOS != "linux" {
		return
	}
	if _, err := readCPU(os.Getpid()); err != nil {
		t.Fatal(err)
	}
	if _, err := readCPU(-1); err == nil {
		t.Fatal("a process that does not exist was read")
	}
}

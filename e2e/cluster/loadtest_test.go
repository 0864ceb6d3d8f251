package cluster_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/loadtest"
)

// The load harness drives the three members at once: the owner's controls
// (agents, tasks, take-overs, the Stop) through a, each conversation's
// agent calls through a, b or c in turn, so most calls are routed to the
// member holding the conversation. Every invariant holds across the
// members, the Stop is checked on each member's /healthz, and acts are
// answered through every member.
func TestLoadThroughEveryMemberKeepsItsInvariants(t *testing.T) {
	_, a, b, c := three(t)
	cfg := targetsOf(a, b, c)
	cfg.Conversations, cfg.Duration, cfg.OwnerRate, cfg.Seed = 9, 4*time.Second, 3, 11
	rep, err := loadtest.Run(context.Background(), cfg.Config)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() || !rep.Passed() {
		_ = rep.WriteTable(os.Stderr)
	}
	if !rep.Passed() {
		t.Fatal("an invariant broke across the members")
	}
	if len(rep.Members) != 3 {
		t.Fatalf("the report has %d members, want a, b and c", len(rep.Members))
	}
	for i, m := range rep.Members {
		if m.Target != cfg.targets()[i] || m.ActsOK == 0 || m.Conversations != 3 {
			t.Fatalf("member %d of the report is %+v; want %s with 3 conversations and acts answered", i, m, cfg.targets()[i])
		}
	}
	for code, n := range rep.UnexpectedBy {
		if routingCodes[code] {
			t.Fatalf("%d acts failed with %s: routing through the members failed", n, code)
		}
		t.Fatalf("%d acts failed with %s, which the run did not provoke", n, code)
	}
	for _, inv := range rep.Invariants {
		// The Stop (the third control, a second into the run) is checked
		// on every member's /healthz at least.
		if inv.Name == "stop_not_lost" && inv.Checked < 3 {
			t.Fatalf("stop_not_lost was checked %d times; the Stop was not checked on every member", inv.Checked)
		}
	}
	if rep.Owner["stop_everywhere"].Count == 0 {
		t.Fatal("the run never waited for the Stop to reach every member")
	}
	viaCLI(t, a, b, c)
}

// routingCodes are the answers of a call that did not get through to the
// member holding its conversation.
var routingCodes = map[string]bool{"unauthorized": true, "not_allowed": true, "cluster_unreachable": true,
	"internal": true, "timeout": true, "transport": true, "not_ok": true}

// viaCLI runs `buddi loadtest` with the members as repeated and
// comma-separated --target flags and checks its JSON report.
func viaCLI(t *testing.T, a, b, c *member) {
	t.Helper()
	cmd := exec.Command(bin, "loadtest", "--target", "http://"+a.addr, "--target", "http://"+b.addr+",http://"+c.addr,
		"--owner-token", a.Owner+","+b.Owner, "--owner-token", c.Owner, "--conversations", "4", "--duration", "2s", "--json")
	cmd.Env = cleanEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("buddi loadtest: %v\n%s\n%s", err, out, stderr.String())
	}
	var rep loadtest.Report
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("buddi loadtest --json printed %s: %v", out, err)
	}
	if !rep.Passed() || len(rep.Members) != 3 || rep.Members[2].Target != "http://"+c.addr {
		t.Fatalf("buddi loadtest through a, b and c reported members %+v, invariants %+v", rep.Members, rep.Invariants)
	}
	for _, m := range rep.Members {
		if m.ActsOK == 0 {
			t.Fatalf("no act was answered through %s", m.Target)
		}
	}
}

// config is a load test of the given targets, the first taking the
// owner's controls.
type config struct{ loadtest.Config }

func (c config) targets() []string { return append([]string{c.Target}, c.Members...) }

func targetsOf(first *member, more ...*member) config {
	c := config{loadtest.Config{Target: "http://" + first.addr, OwnerToken: first.Owner}}
	for _, m := range more {
		c.Members, c.MemberTokens = append(c.Members, "http://"+m.addr), append(c.MemberTokens, m.Owner)
	}
	return c
}

// BenchmarkLoadThroughMembers runs the same load (24 conversations, no
// owner controls, for BUDDI_BENCH_SECONDS, default 20; no think time, or
// think times drawn from 0 to BUDDI_BENCH_THINK_MS)
// through one `buddi serve` without --cluster, and through clusters of 1,
// 2 and 3 members with each conversation's calls spread over the members
// (so a call reaches the member holding its conversation through another
// one with probability (n-1)/n). Every process shares this machine's
// cores, so acts/s is the cost of an act, routing included; server-us/act
// is the CPU time the buddi processes spent per act (from /proc, so other
// work on the machine does not count), harness-us/act the load test's;
// idle-cores is what the buddi processes use with no load (measured for
// 3 s before it: leases, watches, the cluster's gossip), and
// server-net-us/act the CPU time per act beyond that.
// Run it with
//
//	go test ./e2e/cluster -run '^$' -bench LoadThroughMembers -benchtime 1x
func BenchmarkLoadThroughMembers(bm *testing.B) {
	seconds, think := 20, time.Microsecond
	if s, err := strconv.Atoi(os.Getenv("BUDDI_BENCH_SECONDS")); err == nil && s > 0 {
		seconds = s
	}
	if ms, err := strconv.Atoi(os.Getenv("BUDDI_BENCH_THINK_MS")); err == nil && ms > 0 {
		think = time.Duration(ms) * time.Millisecond
	}
	for _, n := range []int{0, 1, 2, 3} {
		name := "single"
		if n > 0 {
			name = "members=" + strconv.Itoa(n)
		}
		bm.Run(name, func(bm *testing.B) {
			cfg, pids := benchTargets(bm, n)
			idle := cpuOf(bm, pids)
			time.Sleep(idleSpan)
			idle = cpuOf(bm, pids) - idle
			cfg.Conversations, cfg.Duration, cfg.ThinkMax, cfg.OwnerRate, cfg.StaleRate = 24, time.Duration(seconds)*time.Second, think, 0, -1
			for bm.Loop() {
				server, harness, start := cpuOf(bm, pids), selfCPU(), time.Now()
				rep, err := loadtest.Run(context.Background(), cfg.Config)
				server, harness = cpuOf(bm, pids)-server, selfCPU()-harness
				idleCost := time.Duration(float64(idle) * float64(time.Since(start)) / float64(idleSpan))
				if err != nil {
					bm.Fatal(err)
				}
				if !rep.Passed() {
					_ = rep.WriteTable(os.Stderr)
					bm.Fatal("an invariant broke")
				}
				bm.ReportMetric(rep.ActsPerSecond, "acts/s")
				bm.ReportMetric(rep.SteadyActs.P50, "p50-ms")
				bm.ReportMetric(rep.SteadyActs.P99, "p99-ms")
				bm.ReportMetric(float64(rep.Unexpected), "unexpected")
				acts := float64(max(rep.Acts, 1))
				bm.ReportMetric(float64(server.Microseconds())/acts, "server-us/act")
				bm.ReportMetric(float64(harness.Microseconds())/acts, "harness-us/act")
				bm.ReportMetric(float64(idle)/float64(idleSpan), "idle-cores")
				bm.ReportMetric(float64((server-idleCost).Microseconds())/acts, "server-net-us/act")
				if rep.Unexpected > 0 {
					bm.Logf("unexpected errors by code: %v; transport errors: %v", rep.UnexpectedBy, rep.TransportErrors)
				}
				if testing.Verbose() {
					_ = rep.WriteTable(os.Stderr)
				}
			}
		})
	}
}

// idleSpan is how long the benchmark measures the servers at rest.
const idleSpan = 3 * time.Second

// benchTargets starts one buddi without --cluster (n = 0), or etcd and n
// members, and returns them as the load's targets, and their processes.
func benchTargets(bm *testing.B, n int) (config, []int) {
	if n == 0 {
		addr, token, pid := startSingle(bm)
		return config{loadtest.Config{Target: "http://" + addr, OwnerToken: token}}, []int{pid}
	}
	etcd := etcdtest.Start(bm)
	ms := make([]*member, n)
	pids := make([]int, n)
	for i := range ms {
		ms[i] = startMember(bm, etcd, string(rune('a'+i)), "")
		pids[i] = ms[i].cmd.Process.Pid
	}
	return targetsOf(ms[0], ms[1:]...), pids
}

// cpuOf is the CPU time (user and system) the processes have used, from
// /proc/PID/stat in clock ticks of 10 ms.
func cpuOf(t testing.TB, pids []int) time.Duration {
	t.Helper()
	var sum time.Duration
	for _, pid := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // f[0] is field 3, the state
		for _, i := range []int{11, 12} {                        // utime and stime, fields 14 and 15
			ticks, err := strconv.ParseInt(f[i], 10, 64)
			if err != nil {
				t.Fatalf("/proc/%d/stat: %v", pid, err)
			}
			sum += time.Duration(ticks) * 10 * time.Millisecond
		}
	}
	return sum
}

// selfCPU is the CPU time this process (the load harness) has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// startSingle runs `buddi serve` without --cluster on the sim driver and
// returns its address, owner token and process id.
func startSingle(t testing.TB) (addr, token string, pid int) {
	t.Helper()
	dir, addr := filepath.Join(t.TempDir(), "single"), daemontest.FreeAddr(t)
	cmd := exec.Command(bin, "serve", "--data", dir, "--addr", addr)
	cmd.Env = append(cleanEnv(), "BUDDI_DRIVER=sim", "BUDDI_LOG_LEVEL=warn")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &daemontest.Buffer{}
	cmd.Stderr = logs
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	})
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); !strings.Contains(line, "serving at") {
		t.Fatalf("buddi serve said %q; logs:\n%s", line, logs.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	if token, err = instance.ReadOwnerToken(dir); err != nil {
		t.Fatal(err)
	}
	return addr, token, cmd.Process.Pid
}

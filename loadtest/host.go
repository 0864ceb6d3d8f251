package loadtest

import (
	"bytes"
	"net"
	"net/url"
	"os"
	"strconv"

	"github.com/buddi-dev/buddi/config"
)

// hostCPU is one reading of the host's CPU time, from /proc/stat's line
// of all CPUs: the seconds its cores were busy (user, nice, system, irq
// and softirq; a guest's time is in user already), and the seconds the
// hypervisor gave this machine's cores to others (steal). A run's p99 on a
// small machine moves from run to run (the same build read 4 ms in one
// 20 s run and 90 ms in another); the timeline shows, second by second,
// whether other processes shared the cores, one cause to rule in or out.
type hostCPU struct {
	busy, steal float64
	ok          bool
}

// clockTicks is USER_HZ, the unit of /proc/stat: 100 on every Linux
// architecture Go runs on.
const clockTicks = 100

// readHostCPU reads the host's CPU time now; not ok where there is no
// /proc/stat.
func readHostCPU() hostCPU {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return hostCPU{}
	}
	return parseHostCPU(b)
}

// parseHostCPU reads the "cpu" line of a /proc/stat.
func parseHostCPU(stat []byte) hostCPU {
	line, _, _ := bytes.Cut(stat, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) < 9 || string(f[0]) != "cpu" {
		return hostCPU{}
	}
	var v [8]float64 // user nice system idle iowait irq softirq steal
	for i := range v {
		n, err := strconv.ParseUint(string(f[i+1]), 10, 64)
		if err != nil {
			return hostCPU{}
		}
		v[i] = float64(n) / clockTicks
	}
	return hostCPU{busy: v[0] + v[1] + v[2] + v[5] + v[6], steal: v[7], ok: true}
}

// othersCores is the cores the host's other processes kept busy over secs,
// from two readings of the host and this process's CPU seconds (own), and
// the targets' (server, 0 when they are not on this host or did not say);
// never below 0, as the readings are not taken at one instant.
func othersCores(then, now hostCPU, own, server, secs float64) (others, steal float64, ok bool) {
	if !then.ok || !now.ok || secs <= 0 {
		return 0, 0, false
	}
	return max(0, (now.busy-then.busy-own-server)/secs), max(0, (now.steal-then.steal)/secs), true
}

// targetsOnHost is the targets' CPU seconds in an interval that the host's
// busy time holds (srvSecs, when they are on this host and said it; 0 in
// process, where this process's CPU holds buddi's, and when they are on
// other hosts). known is false when they are on this host and did not
// say: their CPU is then in the host's with nothing to tell it from the
// others'.
func targetsOnHost(inProcess, onHost, read bool, srvSecs float64) (server float64, known bool) {
	switch {
	case inProcess || !onHost:
		return 0, true
	case read:
		return srvSecs, true
	}
	return 0, false
}

// onThisHost reports whether every target is at a loopback address, so
// that their CPU is part of this host's.
func onThisHost(targets []string) bool {
	for _, t := range targets {
		u, err := url.Parse(t)
		if err != nil || !config.Loopback(net.JoinHostPort(u.Hostname(), "0")) {
			return false
		}
	}
	return len(targets) > 0
}

// targetURLs are the members' addresses.
func (r *run) targetURLs() []string {
	out := make([]string, len(r.members))
	for i, m := range r.members {
		out[i] = m.url
	}
	return out
}

// noisySecond is the other processes' load above which a second counts as
// shared: a fifth of a core is more than this machine's daemons use.
const noisySecond = 0.2

// HostLoad is what the host's other processes took of its cores after
// the first quarter: on average, at most in one second, and how many
// seconds they held more than noisySecond; and what the hypervisor took
// (steal). Absent where the host's CPU time cannot be read.
type HostLoad struct {
	Others       float64 `json:"otherCores"`
	OthersMax    float64 `json:"otherCoresMax"`
	NoisySeconds int     `json:"secondsAboveFifthOfCore"`
	Seconds      float64 `json:"seconds"`
	Steal        float64 `json:"stealCores"`
}

// hostTally sums the steady intervals' host load.
type hostTally struct {
	others, steal, secs, max float64
	noisy                    int
}

func (h *hostTally) add(others, steal, secs float64) {
	h.others += others * secs
	h.steal += steal * secs
	h.secs += secs
	h.max = max(h.max, others)
	if others > noisySecond {
		h.noisy++
	}
}

func (h *hostTally) report() *HostLoad {
	if h.secs == 0 {
		return nil
	}
	return &HostLoad{Others: h.others / h.secs, OthersMax: h.max, NoisySeconds: h.noisy, Seconds: h.secs, Steal: h.steal / h.secs}
}

// hostReport is the host's load over the steady intervals so far.
func (tl *sampler) hostReport() *HostLoad {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return tl.hostLoad.report()
}

// Command floor measures what HTTP on loopback costs on this host, with
// nothing of buddi behind it: a bare fasthttp server, in a process of its
// own, answers every POST with the same JSON, and this process drives it
// as buddi loadtest drives a daemon (one kept-alive connection per
// simulated agent, through buddi's API client, paced to a total rate or
// unthrottled). It reports the requests per second, their latency, and
// the CPU each process spent per request while they were measured.
//
// It is the part of buddi loadtest's figures that no work in buddi can
// take away: read the daemon's CPU per act and ceiling beside it.
//
//	go run ./scripts/floor -rate 10000     # the server's CPU per request at a rate
//	go run ./scripts/floor -rate 0         # the unthrottled ceiling
//
// Linux only: the CPU figures are read from /proc.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/metrics"
)

// serverProcs is the Ps the server runs with by default, so that the
// floor pays the same scheduling as buddi's daemon: 6 on a machine of fewer
// CPUs (cmd/buddi's daemonProcs), else Go's choice (0).
func serverProcs() int {
	if runtime.NumCPU() < 6 {
		return 6
	}
	return 0
}

type config struct {
	conns    int
	rate     float64
	warm     time.Duration
	measure  time.Duration
	answer   int
	procs    int
	serveArg string // set in the server's own process: the address to listen on
}

func main() {
	var c config
	flag.IntVar(&c.conns, "conns", 1000, "kept-alive connections, one request in flight on each (the load test's --conversations)")
	flag.Float64Var(&c.rate, "rate", 10000, "total requests per second; 0 sends each connection's next request as soon as its answer came")
	flag.DurationVar(&c.warm, "warm", 5*time.Second, "how long to drive the server before measuring")
	flag.DurationVar(&c.measure, "duration", 20*time.Second, "how long to measure")
	flag.IntVar(&c.answer, "answer-bytes", 2000, "size of the JSON answer to every request")
	flag.IntVar(&c.procs, "server-procs", serverProcs(), "GOMAXPROCS of the server's process (0: Go's choice); by default what buddi serve would use here")
	flag.StringVar(&c.serveArg, "serve", "", "run as the bare server on this address (the command starts itself so; not needed by hand)")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	if c.serveArg != "" {
		return serve(c.serveArg, c.answer)
	}
	if c.conns < 1 || c.rate < 0 || c.measure <= 0 || c.warm < 0 || c.answer < 16 {
		return errors.New("give -conns of at least 1, a -rate of 0 or more, a positive -duration and -answer-bytes of at least 16")
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	srv, err := startServer(c, addr)
	if err != nil {
		return err
	}
	defer func() { _ = srv.Process.Kill(); _ = srv.Wait() }()
	procs := "Go's choice"
	if c.procs > 0 {
		procs = strconv.Itoa(c.procs)
	}
	fmt.Fprintf(os.Stderr, "floor: a bare server on %s (GOMAXPROCS %s), %d connections, rate %s, %s warm then %s measured\n",
		addr, procs, c.conns, rateWords(c.rate), c.warm, c.measure)
	return drive(c, addr, srv.Process.Pid)
}

// serve answers every request with the same JSON, as the daemon answers
// an act: a status, a content type and the body, nothing more.
func serve(addr string, size int) error {
	body := answer(size)
	s := &fasthttp.Server{
		Handler: func(ctx *fasthttp.RequestCtx) {
			ctx.SetContentType("application/json")
			ctx.SetBody(body)
		},
		NoDefaultServerHeader: true,
		NoDefaultDate:         true,
	}
	return s.ListenAndServe(addr)
}

// answer is a JSON answer of about size bytes, shaped as an act's.
func answer(size int) []byte {
	head := `{"ok":true,"result":{"observation":"o-1","text":"`
	tail := `"}}`
	return []byte(head + strings.Repeat("x", max(0, size-len(head)-len(tail))) + tail)
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port on 127.0.0.1: %w", err)
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// startServer runs this command again as the server and waits until it
// answers.
func startServer(c config, addr string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-serve", addr, "-answer-bytes", strconv.Itoa(c.answer))
	cmd.Stderr = os.Stderr
	cmd.Env = os.Environ()
	if c.procs > 0 {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+strconv.Itoa(c.procs))
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the server: %w", err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			conn.Close()
			return cmd, nil
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return nil, fmt.Errorf("the server did not listen on %s within 10 s", addr)
}

// load is what the connections share: whether they are measured, and how
// many of their measured requests failed (the answered ones each keep
// their latency).
type load struct {
	measuring atomic.Bool
	failed    atomic.Int64
}

// body is every request's: an act, as an agent sends one.
var body = []byte(`{"conversation":"floor","action":"click","ref":"e12","observation":"o-1"}`)

// drive runs the connections for warm plus measure, and reports the
// measured part.
func drive(c config, addr string, server int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var l load
	lat := make([][]time.Duration, c.conns)
	var wg sync.WaitGroup
	period := time.Duration(0)
	if c.rate > 0 {
		period = time.Duration(float64(c.conns) / c.rate * float64(time.Second))
	}
	for i := range c.conns {
		api, err := apiclient.New("http://"+addr, apiclient.WithFast(1, 10*time.Second))
		if err != nil {
			return err
		}
		wg.Go(func() { l.connection(ctx, api, period, &lat[i]) })
	}
	time.Sleep(c.warm)
	before, err := readCPU(server)
	if err != nil {
		return err
	}
	self0, _ := metrics.CPUTime()
	l.measuring.Store(true)
	start := time.Now()
	time.Sleep(c.measure)
	l.measuring.Store(false)
	took := time.Since(start)
	after, err := readCPU(server)
	if err != nil {
		return err
	}
	self1, _ := metrics.CPUTime()
	cancel()
	wg.Wait()
	all := slices.Concat(lat...)
	if len(all) == 0 {
		return fmt.Errorf("no request was answered while measuring (%d failed)", l.failed.Load())
	}
	slices.Sort(all)
	report(all, l.failed.Load(), took, after-before, self1-self0)
	return nil
}

// connection sends requests on one kept-alive connection until ctx ends,
// one every period (as soon as the last was answered when period is 0),
// and keeps the latency of those answered while measuring in lat.
func (l *load) connection(ctx context.Context, api *apiclient.Client, period time.Duration, lat *[]time.Duration) {
	next := time.Now()
	if period > 0 {
		next = next.Add(rand.N(period)) // spread the connections over one period
	}
	var text []byte
	for ctx.Err() == nil {
		if period > 0 {
			time.Sleep(time.Until(next))
			next = next.Add(period)
		}
		start := time.Now()
		r := messages.ActReply{TextInto: &text} // read as the load test reads an act's answer
		status, err := api.DoJSONInto(ctx, "POST", "/api/tools/browser.act", "floor", body, &r)
		switch {
		case !l.measuring.Load() || ctx.Err() != nil:
		case err != nil || status != fasthttp.StatusOK || !r.OK:
			l.failed.Add(1)
		default:
			*lat = append(*lat, time.Since(start))
		}
	}
}

// report prints the measured requests' rate and latency (lat sorted), and
// the CPU each process spent per request.
func report(lat []time.Duration, failed int64, took, server, client time.Duration) {
	n := float64(len(lat))
	pct := func(p float64) float64 { return float64(lat[int(p*(n-1))].Microseconds()) / 1000 }
	perReq := func(d time.Duration) float64 { return float64(d.Microseconds()) / n }
	cores := func(d time.Duration) float64 { return d.Seconds() / took.Seconds() }
	fmt.Printf("requests %d in %.1f s: %.0f/s, %d failed\n", len(lat), took.Seconds(), n/took.Seconds(), failed)
	fmt.Printf("latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", pct(0.50), pct(0.99), pct(1))
	fmt.Printf("server cpu %.1f µs per request (%.2f cores)\n", perReq(server), cores(server))
	fmt.Printf("client cpu %.1f µs per request (%.2f cores; GOMAXPROCS %d)\n", perReq(client), cores(client), runtime.GOMAXPROCS(0))
}

func rateWords(rate float64) string {
	if rate == 0 {
		return "unthrottled"
	}
	return fmt.Sprintf("%.0f/s", rate)
}

// readCPU is the user and system CPU a process has spent, from
// /proc/PID/stat.
func readCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("reading the server's CPU: %w (the floor reads /proc, on Linux)", err)
	}
	return statCPU(string(b))
}

// statCPU is the user and system CPU in a line of /proc/PID/stat (fields
// 14 and 15, in clock ticks of 1/100 s). The command's name, in
// parentheses, may hold spaces and parentheses: fields are counted after
// the last closing one (field 3 onwards).
func statCPU(line string) (time.Duration, error) {
	i := strings.LastIndexByte(line, ')')
	f := strings.Fields(line[i+1:])
	if i < 0 || len(f) < 13 {
		return 0, fmt.Errorf("reading the server's CPU: a stat line of %d fields after the name", len(f))
	}
	var ticks int64
	for _, v := range f[11:13] {
		t, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("reading the server's CPU: %w", err)
		}
		ticks += t
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

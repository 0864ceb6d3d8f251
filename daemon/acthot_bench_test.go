package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/buddi-dev/buddi/apiclient"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

// cpuTime is the process's user and system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// hotAnswer is the part of browser.act's answer the benchmark reads, as
// the load harness reads it (without reflection).
type hotAnswer = messages.ActReply

var linkRef = regexp.MustCompile(`link "[^"]*" \[ref=(e[0-9]+)\]`)

// hotAgent is one conversation of the benchmark: it cycles through the
// acts an agent makes most, and starts a new task when its steps run out.
type hotAgent struct {
	d        *daemontest.Daemon
	api      *apiclient.Client
	token    string
	name     string
	conv     string
	gen      int
	used     int
	i        int
	obs      string
	link     string
	clicks   int
	body     []byte // the next act's body, in room kept across acts
	text     []byte // the latest answer's text, in room kept across acts
	lastText []byte // the latest observation's text
}

func (a *hotAgent) renew(b *testing.B) {
	if a.conv != "" {
		a.d.Must(b, "POST", "/api/browser/release", messages.OwnerBody{Conversation: a.conv})
	}
	a.gen++
	a.conv = fmt.Sprintf("%s-%d", a.name, a.gen)
	a.d.Task(b, "ada", a.conv, messages.MaxSteps)
	a.used, a.obs, a.link = 0, "", ""
}

// next is the next act's body, already JSON as an agent sends it: the
// loop navigates, observes, clicks a link the observation names, observes
// the page it led to, scrolls and presses a key.
func (a *hotAgent) next() []byte {
	a.i++
	step := a.i % 6
	if a.obs == "" && step != 0 {
		step = 1 // a new task: observe first
	}
	switch step {
	case 0:
		return fmt.Appendf(a.body[:0], `{"conversation":%q,"input":{"action":"navigate","url":"%s/p/%d"}}`, a.conv, sim.Origin, a.i%10)
	case 2:
		if a.link != "" {
			a.clicks++
			return fmt.Appendf(a.body[:0], `{"conversation":%q,"input":{"action":"click","observation":%q,"target":{"ref":%q}}}`, a.conv, a.obs, a.link)
		}
	case 4:
		return fmt.Appendf(a.body[:0], `{"conversation":%q,"input":{"action":"scroll","observation":%q,"deltaY":400}}`, a.conv, a.obs)
	case 5:
		return fmt.Appendf(a.body[:0], `{"conversation":%q,"input":{"action":"press","observation":%q,"key":"End"}}`, a.conv, a.obs)
	}
	return fmt.Appendf(a.body[:0], `{"conversation":%q,"input":{"action":"observe"}}`, a.conv)
}

// act sends one act and reads its answer; the renewal of a spent task is
// done with the timer stopped when stop is true.
func (a *hotAgent) act(b *testing.B, stop bool) {
	if a.used == messages.MaxSteps-1 || a.conv == "" {
		if stop {
			b.StopTimer()
		}
		a.renew(b)
		if stop {
			b.StartTimer()
		}
	}
	a.used++
	a.read(b, a.send(b))
}

// read takes in an act's answer as the agent does: an observation's id,
// and a link to click next.
func (a *hotAgent) read(b *testing.B, r hotAnswer) {
	if !r.OK {
		b.Fatalf("act: %s: %s", r.Error.Code, r.Error.Message)
	}
	if r.Result.Observation != "" {
		text := a.text
		if r.Result.Text != "" { // not decoded by DecodeFast
			text = []byte(r.Result.Text)
		}
		a.obs, a.lastText = r.Result.Observation, append(a.lastText[:0], text...)
		if m := linkRef.FindSubmatch(text); m != nil && string(m[1]) != a.link {
			a.link = string(m[1])
		}
	}
}

// send sends the next act and returns its answer, read as the load harness
// reads it.
func (a *hotAgent) send(b *testing.B) hotAnswer {
	r := hotAnswer{TextInto: &a.text}
	a.body = a.next()
	if _, err := a.api.DoInto(context.Background(), "POST", "/api/tools/browser.act", a.token, a.body, &r); err != nil {
		b.Fatalf("act: %v", err)
	}
	return r
}

// answers are the raw answers to one round of the agent's acts (six), each
// taken in as act takes it, for a server that answers without the daemon:
// the same answers the serial run reads, none of them a refusal.
func (a *hotAgent) answers(b *testing.B) [][]byte {
	var out [][]byte
	for range 6 {
		var raw json.RawMessage
		status, err := a.api.DoInto(context.Background(), "POST", "/api/tools/browser.act", a.token, a.next(), &raw)
		if err != nil || status != 200 {
			b.Fatalf("act: %d %v", status, err)
		}
		r := hotAnswer{TextInto: &a.text}
		if !r.DecodeFast(raw) {
			b.Fatalf("an answer the harness cannot read fast: %.300s", raw)
		}
		a.read(b, r)
		out = append(out, raw)
	}
	return out
}

// BenchmarkActHotPath measures the agent's hot path: browser.act with a
// running session on the sim driver, through the real HTTP server on
// 127.0.0.1 and the API client's kept-alive transport. cpu-µs/act is the
// CPU time of the whole process (daemon and client) per act.
func BenchmarkActHotPath(b *testing.B) {
	d := daemontest.Start(b, "", simOpts(sim.Config{}, nil))
	token := d.AddAgent(b, "ada", false)
	newAgent := func(name string) *hotAgent {
		api, err := apiclient.New("http://"+d.Addr(), apiclient.WithFast(1, 10*time.Second))
		if err != nil {
			b.Fatal(err)
		}
		return &hotAgent{d: d, api: api, token: token, name: name}
	}
	serial, floor := 0, 0
	b.Run("serial", func(b *testing.B) {
		serial++
		a := newAgent(fmt.Sprintf("serial%d", serial))
		for range 200 { // warm: pages seen, buffers grown
			a.act(b, false)
		}
		b.ReportAllocs()
		b.ResetTimer()
		cpu := cpuTime(b)
		var paused time.Duration
		for range b.N {
			if a.used == messages.MaxSteps-1 {
				p := cpuTime(b)
				b.StopTimer()
				a.renew(b)
				b.StartTimer()
				paused += cpuTime(b) - p
			}
			a.act(b, false)
		}
		b.StopTimer()
		d.Must(b, "POST", "/api/browser/release", messages.OwnerBody{Conversation: a.conv})
		if b.N > 100 && a.clicks == 0 {
			b.Fatalf("no answer named a link to click; the last: %.600s", a.lastText)
		}
		b.ReportMetric(float64((cpuTime(b)-cpu-paused).Microseconds())/float64(b.N), "cpu-µs/act")
	})
	b.Run("floor", func(b *testing.B) {
		// The same client and acts against a bare fasthttp server on
		// 127.0.0.1 that answers each with an answer the daemon gave,
		// doing nothing else: what HTTP on loopback costs per act here,
		// the part of serial's figure no work in buddi can take away.
		floor++
		a := newAgent(fmt.Sprintf("floor%d", floor))
		for range 50 {
			a.act(b, false)
		}
		answers := a.answers(b)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		var n atomic.Int64
		srv := &fasthttp.Server{Handler: func(ctx *fasthttp.RequestCtx) {
			ctx.SetContentType("application/json")
			ctx.SetBody(answers[(n.Add(1)-1)%int64(len(answers))])
		}, ReduceMemoryUsage: true, NoDefaultServerHeader: true, NoDefaultDate: true}
		go func() { _ = srv.Serve(ln) }()
		b.Cleanup(func() { _ = srv.Shutdown() })
		api, err := apiclient.New("http://"+ln.Addr().String(), apiclient.WithFast(1, 10*time.Second))
		if err != nil {
			b.Fatal(err)
		}
		bare := &hotAgent{api: api, token: token, conv: a.conv, obs: a.obs, link: a.link}
		b.ReportAllocs()
		b.ResetTimer()
		cpu := cpuTime(b)
		for range b.N {
			bare.send(b)
		}
		b.StopTimer()
		d.Must(b, "POST", "/api/browser/release", messages.OwnerBody{Conversation: a.conv})
		b.ReportMetric(float64((cpuTime(b)-cpu).Microseconds())/float64(b.N), "cpu-µs/act")
	})
	var mu sync.Mutex
	var idle []*hotAgent
	for i := range 6 {
		idle = append(idle, newAgent(fmt.Sprintf("par%d", i)))
	}
	b.Run("parallel", func(b *testing.B) {
		// Six conversations at once (the daemon runs eight sessions): what
		// the daemon does per act when it is kept busy, task renewals
		// included (one in 79 acts).
		b.ReportAllocs()
		b.SetParallelism(3)
		b.ResetTimer()
		cpu := cpuTime(b)
		b.RunParallel(func(pb *testing.PB) {
			mu.Lock()
			a := idle[len(idle)-1]
			idle = idle[:len(idle)-1]
			mu.Unlock()
			defer func() {
				mu.Lock()
				idle = append(idle, a)
				mu.Unlock()
			}()
			for pb.Next() {
				a.act(b, false)
			}
		})
		b.StopTimer()
		b.ReportMetric(float64((cpuTime(b)-cpu).Microseconds())/float64(b.N), "cpu-µs/act")
	})
}

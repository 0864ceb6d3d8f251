package e2e_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/messages"
)

// neighbourActs is how many acts each well-behaved conversation makes at
// least; they go on, more slowly, until the hostile conversation is done,
// within their task's 80 steps.
const (
	neighbourActs = 30
	stepsMax      = 80
)

// answered is one answer of the hostile conversation.
type answered struct {
	page, action string
	code         messages.Code // "" when ok
	message      string
	took         time.Duration
	url, text    string // what an observation that answered ok showed
}

// shows reports whether a is an observation of the hostile page h at
// name: its address and its text, not a blank tab that replaced it.
func (a answered) shows(name string, h browsertest.Hostile) bool {
	return a.code == "" && a.action == "observe" && h.Shows != "" &&
		strings.HasSuffix(a.url, "/"+name) && strings.Contains(a.text, h.Shows)
}

// crowd is one run of three conversations in one browser: what the two
// neighbours' acts took and which failed, and the hostile conversation's
// answers.
type crowd struct {
	mu       sync.Mutex
	took     []time.Duration
	failures []string
	hostile  []answered
	page     string   // the hostile page open now ("" before the first)
	slow     []string // the neighbours' acts, slowest first after sortSlow
	slowTook []time.Duration
}

func (c *crowd) act(conv, action string, r *daemontest.Reply, took time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.took = append(c.took, took)
	c.slow = append(c.slow, fmt.Sprintf("%v %s %s beside %q", took.Round(time.Millisecond), conv, action, c.page))
	c.slowTook = append(c.slowTook, took)
	if !r.OK {
		c.failures = append(c.failures, fmt.Sprintf("%s %s: %s: %s", conv, action, r.Code(), r.Error.Message))
	}
}

// p99 is the 99th percentile of the neighbours' acts.
func (c *crowd) p99() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := slices.Clone(c.took)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, len(s)*99/100)]
}

// neighbourPage is an ordinary page with a button that counts its clicks.
const neighbourPage = `<!doctype html><title>Neighbour</title><h1>Neighbour</h1>
<button onclick="this.textContent = 'Clicked ' + (++this.dataset.n)" data-n="0">Click me</button>`

// runCrowd serves buddi with the hostile pages and a neighbour page, starts
// three conversations, and has two of them navigate, observe and click in
// turn (neighbourActs acts each at least) while the third, when hostile is
// set, opens each hostile page in turn and observes it until it answers
// ok or buddi closed it.
func runCrowd(t testing.TB, hostile bool) *crowd {
	t.Helper()
	mux := http.NewServeMux()
	browsertest.ServeHostiles(mux)
	bad := httptest.NewServer(mux)
	t.Cleanup(bad.Close)
	good := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, neighbourPage)
	}))
	t.Cleanup(good.Close)
	b := serve(t, "", "BUDDI_PREVIEW_ORIGINS="+bad.URL+","+good.URL)
	tok := b.AddAgent(t, "ada", false)
	for _, conv := range []string{"hostile", "n1", "n2"} {
		b.Task(t, "ada", conv, stepsMax)
		if r := b.Act(t, tok, conv, in{"action": "navigate", "url": good.URL + "/"}); !r.OK {
			t.Fatalf("%s: the first navigate: %s: %s", conv, r.Code(), r.Error.Message)
		}
	}
	c := &crowd{}
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, conv := range []string{"n1", "n2"} {
		wg.Add(1)
		go func() { defer wg.Done(); neighbour(t, b, tok, conv, good.URL, done, c) }()
	}
	if hostile {
		openHostiles(t, b, tok, bad.URL, c)
	}
	close(done)
	wg.Wait()
	return c
}

// neighbour navigates, observes and clicks in turn until done is closed
// and it made neighbourActs acts.
func neighbour(t testing.TB, b *buddi, tok, conv, page string, done <-chan struct{}, c *crowd) {
	for n := 0; n < stepsMax-4; n++ {
		if n >= neighbourActs {
			select {
			case <-done:
				return
			case <-time.After(2 * time.Second):
			}
		}
		start := time.Now()
		r := b.Act(t, tok, conv, in{"action": "navigate", "url": fmt.Sprintf("%s/?n=%d", page, n)})
		c.act(conv, "navigate", r, time.Since(start))
		start = time.Now()
		obs := b.Act(t, tok, conv, in{"action": "observe"})
		c.act(conv, "observe", obs, time.Since(start))
		n++
		ref, found := daemontest.FindRef(obs.Map(), "button", "Click me")
		if !obs.OK {
			continue
		}
		if !found {
			c.mu.Lock()
			c.failures = append(c.failures, conv+" observe: the page's button is not in the observation")
			c.mu.Unlock()
			continue
		}
		start = time.Now()
		r = b.Act(t, tok, conv, in{"action": "click", "observation": daemontest.ID(obs.Map()), "target": target1(ref)})
		c.act(conv, "click", r, time.Since(start))
		n++
	}
}

// openHostiles opens each hostile page in the hostile conversation: a
// navigate, then observes (at most six) until buddi closed it
// (page_unresponsive) or, for a page it keeps bounded, one reads the
// page (one it keeps but closed on a busy machine, or one under which the
// whole browser restarted, is opened once more). A
// page buddi closes that still answers is given two seconds before the
// next observe: a page growing its memory takes a while to reach its
// bound on a loaded machine, and the verdict is owed to it, not to the
// next page's navigate.
func openHostiles(t testing.TB, b *buddi, tok, site string, c *crowd) {
	names := make([]string, 0, len(browsertest.Hostiles))
	for name := range browsertest.Hostiles {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		h := browsertest.Hostiles[name]
		c.mu.Lock()
		c.page = name
		c.mu.Unlock()
		last, again := hostileAct(t, b, tok, name, in{"action": "navigate", "url": site + "/" + name}, c), false
		for i := 0; i < 6 && !settled(name, h, last); i++ {
			if strings.HasSuffix(last.message, "paused until the owner resumes access.") {
				// Three observations in a row did not answer (a page of
				// 200,000 elements on a loaded machine): the owner resumes,
				// as the answer says, and the agent observes again.
				b.Must(t, "POST", "/api/browser/resume", in{"conversation": "hostile"})
			}
			if h.Cut && last.code == "" {
				time.Sleep(2 * time.Second)
			}
			// The agent opens the page once more, as it would, rather than
			// observe the blank tab, when the whole browser restarted
			// before the page loaded (a renderer's crash took Chromium
			// down just after the memory page, now and then on a loaded
			// machine), or when buddi closed a page it keeps on a machine
			// too busy to let it answer in time.
			restarted := last.code == messages.CodeBrowserRestarted
			if !again && (restarted || !h.Cut && last.code == messages.CodePageUnresponsive) {
				again = true
				last = hostileAct(t, b, tok, name, in{"action": "navigate", "url": site + "/" + name}, c)
				continue
			}
			last = hostileAct(t, b, tok, name, in{"action": "observe"}, c)
		}
		if strings.HasSuffix(last.message, "paused until the owner resumes access.") {
			b.Must(t, "POST", "/api/browser/resume", in{"conversation": "hostile"}) // the next page's verdict is its own
		}
	}
}

// settled reports whether a is the answer the hostile page name comes to.
func settled(name string, h browsertest.Hostile, a answered) bool {
	if h.Cut {
		return a.code == messages.CodePageUnresponsive
	}
	return a.shows(name, h)
}

func hostileAct(t testing.TB, b *buddi, tok, page string, input in, c *crowd) answered {
	start := time.Now()
	r := b.Act(t, tok, "hostile", input)
	a := answered{page: page, action: input["action"].(string), took: time.Since(start)}
	if !r.OK {
		a.code, a.message = r.Code(), r.Error.Message
	} else if a.action == "observe" {
		obs := r.Map()
		a.url, _ = obs["url"].(string)
		a.text, _ = obs["text"].(string)
	}
	c.mu.Lock()
	c.hostile = append(c.hostile, a)
	c.mu.Unlock()
	return a
}

// Three conversations share one browser; one opens, in turn, pages that
// spin, loop on alert, grow their memory or their document without end,
// flood the console, carry a 6 MB title, navigate themselves, and hold
// 200,000 elements. The other two make their acts meanwhile without one
// failing; each hostile page buddi closes is answered page_unresponsive
// with a sentence (at most not_answering before it), each answer within
// its act's deadline, and the pages it keeps are read: the last
// observation of each shows that page (its address and its text), not the
// blank tab buddi leaves after closing one.
func TestE2EHostilePagesLeaveOtherConversationsAlone(t *testing.T) {
	c := runCrowd(t, true)
	for _, f := range c.failures {
		t.Errorf("a neighbour's act failed: %s", f)
	}
	t.Logf("the neighbours' %d acts: p99 %v, load %s", len(c.took), c.p99().Round(time.Millisecond), loadavg())
	for _, s := range c.slowest(5) {
		t.Logf("slow: %s", s)
	}
	last := map[string]answered{}
	for _, a := range c.hostile {
		t.Logf("%-8s %-8s %-18s %6v %s%s", a.page, a.action, orOK(a.code), a.took.Round(time.Millisecond), a.message, a.url)
		if deadline := messages.Spec(a.action).Deadline; a.took > deadline+5*time.Second {
			t.Errorf("%s: %s answered after %v, past its deadline of %v", a.page, a.action, a.took, deadline)
		}
		switch a.code {
		case "", messages.CodeNotAnswering, messages.CodePageUnresponsive:
		case messages.CodeBrowserRestarted:
			// The browser's restart is told once and is no verdict on
			// the page; a neighbour it reaches fails all the same.
			t.Logf("%s: the browser restarted under this page's %s", a.page, a.action)
		default:
			t.Errorf("%s: %s answered %s: %s", a.page, a.action, a.code, a.message)
		}
		if a.code != "" && !strings.HasSuffix(a.message, ".") {
			t.Errorf("%s: the answer is no sentence: %q", a.page, a.message)
		}
		last[a.page] = a
	}
	for name, h := range browsertest.Hostiles {
		switch a := last[name]; {
		case h.Cut && a.code != messages.CodePageUnresponsive:
			t.Errorf("%s: buddi did not close it; the last answer: %s %s", name, orOK(a.code), a.message)
		case !h.Cut && !a.shows(name, h):
			t.Errorf("%s: the page was not read: the last answer: %s %s %s %s", name, a.action, orOK(a.code), a.message, a.url)
		}
	}
}

func orOK(c messages.Code) string {
	if c == "" {
		return "ok"
	}
	return string(c)
}

// BenchmarkNoisyNeighbours runs, in one process, the two neighbours alone
// and then beside the hostile conversation, and reports both p99s of
// their acts and the ratio (the issue asks for at most 2), with the failed
// acts beside the hostile pages. Each run logs the machine's load.
func BenchmarkNoisyNeighbours(b *testing.B) {
	var alone, beside time.Duration
	acts, failed := 0, 0
	for i := 0; i < b.N; i++ {
		base := runCrowd(b, false)
		b.Logf("alone: %d acts, p99 %v, load %s", len(base.took), base.p99().Round(time.Millisecond), loadavg())
		c := runCrowd(b, true)
		b.Logf("beside the hostile pages: %d acts, p99 %v, %d failed, load %s", len(c.took), c.p99().Round(time.Millisecond), len(c.failures), loadavg())
		for _, f := range c.failures {
			b.Logf("a neighbour's act failed: %s", f)
		}
		for _, s := range c.slowest(5) {
			b.Logf("slow: %s", s)
		}
		alone, beside = max(alone, base.p99()), max(beside, c.p99())
		acts, failed = acts+len(c.took), failed+len(c.failures)
	}
	b.ReportMetric(float64(alone.Milliseconds()), "alone-p99-ms")
	b.ReportMetric(float64(beside.Milliseconds()), "hostile-p99-ms")
	b.ReportMetric(float64(beside)/float64(max(alone, time.Millisecond)), "p99-ratio")
	b.ReportMetric(float64(acts)/float64(b.N), "acts/op")
	b.ReportMetric(float64(failed)/float64(b.N), "failed/op")
}

// slowest are the n slowest of the neighbours' acts, each with the hostile
// page open at the time.
func (c *crowd) slowest(n int) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	idx := make([]int, len(c.slow))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return c.slowTook[idx[a]] > c.slowTook[idx[b]] })
	out := []string{}
	for _, i := range idx[:min(n, len(idx))] {
		out = append(out, c.slow[i])
	}
	return out
}

// loadavg is the machine's load averages as /proc/loadavg says them.
func loadavg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.Join(strings.Fields(string(raw))[:3], " ")
}

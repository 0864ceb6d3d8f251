package webtest_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// watch records, in the page, when each card first shows the result of an
// act (its last action line, which the step's event fills):
// "<conversation>/<steps>" → the wall clock in milliseconds.
const watch = `() => {
  window.__seen = {};
  const look = () => {
    for (const el of document.querySelectorAll("article.session .last[data-steps]")) {
      const card = el.closest("article.session");
      const k = card.dataset.conversation + "/" + el.dataset.steps;
      if (!(k in window.__seen)) window.__seen[k] = performance.timeOrigin + performance.now();
    }
  };
  new MutationObserver(look).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  look();
}`

// BenchmarkActToDashboard is the time from an agent's act to the Host
// browser page showing its result, in a real Chromium: from the moment the
// agent sends the act (sent) and from the moment it has its answer
// (answered, negative when the page was quicker than the agent's HTTP
// client), beside how long the act itself took the agent (act).
// The agents' browser is the simulated one, so the act itself is quick
// and what is measured is buddi's path to the page: the session's event,
// the events socket, the page's update.
func BenchmarkActToDashboard(b *testing.B) {
	o := start(b, daemon.Options{})
	p := o.Page(b, 1280, 900)
	o.SignIn(b, p)
	tok := o.AddAgent(b, "ada", false)
	if _, err := p.Evaluate(watch); err != nil {
		b.Fatal(err)
	}
	sent := make([]time.Duration, 0, b.N)
	answered := make([]time.Duration, 0, b.N)
	acts := make([]time.Duration, 0, b.N)
	conv, steps, round := "", 80, 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if steps >= 78 {
			b.StopTimer()
			if conv != "" {
				o.Must(b, "POST", "/api/browser/release", messages.OwnerBody{Conversation: conv})
			}
			round++
			conv, steps = fmt.Sprintf("b%d", round), 0
			o.Task(b, "ada", conv, 80)
			webtest.Visible(b, p.Locator(`article.session[data-conversation="`+conv+`"]`))
			b.StartTimer()
		}
		start := time.Now()
		r := o.Act(b, tok, conv, map[string]any{"action": "navigate", "url": "https://sim.localhost/p/" + fmt.Sprint(i%50)})
		done := time.Now()
		if !r.OK {
			b.Fatalf("act: %s", r.Code())
		}
		steps++
		key := fmt.Sprintf("%s/%d", conv, steps)
		v, err := p.WaitForFunction(`(k) => window.__seen[k]`, key, pw.PageWaitForFunctionOptions{Polling: pw.Float(5)})
		if err != nil {
			b.Fatal(err)
		}
		shown, _ := v.JSONValue()
		at := time.UnixMicro(int64(number(shown) * 1000))
		sent = append(sent, at.Sub(start))
		answered = append(answered, at.Sub(done))
		acts = append(acts, done.Sub(start))
	}
	b.StopTimer()
	quantiles(b, "sent", sent)
	quantiles(b, "answered", answered)
	quantiles(b, "act", acts)
}

// BenchmarkControlAnswer is the time from the owner's click on Take over
// (then Resume access) to the card saying what happened; the owner API's
// own answer to the same controls is BenchmarkControlAPI.
func BenchmarkControlAnswer(b *testing.B) {
	o := start(b, daemon.Options{})
	p := o.Page(b, 1280, 900)
	o.SignIn(b, p)
	o.AddAgent(b, "ada", false)
	o.Task(b, "ada", "c1", 80)
	c := card(p, "c1")
	lat := make([]time.Duration, 0, 2*b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, step := range []struct{ button, says string }{{"Take over", "Taken over"}, {"Resume access", "Access resumed"}} {
			start := time.Now()
			webtest.Click(b, c.Locator("button", pw.LocatorLocatorOptions{HasText: step.button}))
			webtest.Visible(b, c.Locator(".said", pw.LocatorLocatorOptions{HasText: step.says}))
			lat = append(lat, time.Since(start))
		}
	}
	b.StopTimer()
	quantiles(b, "click", lat)
}

func quantiles(b *testing.B, name string, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, name+"-p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, name+"-p99-ms")
}

// number is a JSON number from the page, whichever Go type it came as.
func number(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	case int64:
		return float64(n)
	}
	return 0
}

// BenchmarkControlAPI is the owner API's answer to Take over and Resume
// access (durable in the ledger before it is answered).
func BenchmarkControlAPI(b *testing.B) {
	o := start(b, daemon.Options{})
	o.AddAgent(b, "ada", false)
	o.Task(b, "ada", "c1", 80)
	lat := make([]time.Duration, 0, 2*b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, path := range []string{"/api/browser/takeover", "/api/browser/resume"} {
			start := time.Now()
			o.Must(b, "POST", path, messages.OwnerBody{Conversation: "c1"})
			lat = append(lat, time.Since(start))
		}
	}
	b.StopTimer()
	quantiles(b, "api", lat)
}

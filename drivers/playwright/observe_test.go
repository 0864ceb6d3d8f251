package playwright_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// longPage is a generated document of n sections, each with a heading,
// paragraphs with links, a list with a button and a small table.
func longPage(n int) string {
	var b strings.Builder
	b.WriteString(`<header><nav><a href="/">Home</a> <a href="/docs">Docs</a></nav></header><main>`)
	for i := range n {
		fmt.Fprintf(&b, `<section id="s%d"><h2>Section %d</h2>`, i, i)
		for j := range 4 {
			fmt.Fprintf(&b, `<p>Paragraph %d.%d with <a href="/p/%d/%d">link %d.%d</a> and <code>code</code> that runs on to fill a line or two of text.</p>`, i, j, i, j, i, j)
		}
		fmt.Fprintf(&b, `<ul><li>one</li><li>two</li><li><button>Act %d</button></li></ul><table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td><input aria-label="field %d"></td></tr></table></section>`, i, i)
	}
	b.WriteString(`</main><footer>The end</footer>`)
	return b.String()
}

func TestObserveIsViewportFirst(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/long", "Long", longPage(300))
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/long")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	if len(obs.Tree) > 4096 || !strings.Contains(obs.Tree, `link "Home"`) || strings.Contains(obs.Tree, "Section 299") ||
		!strings.Contains(obs.Tree, "below the viewport") {
		t.Fatalf("default observation: %d chars, tail:\n%s", len(obs.Tree), tail(obs.Tree))
	}
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Scroll, DeltaY: 20000})
	obs = observe(t, tabs, drivers.ObserveOptions{})
	if strings.Contains(obs.Tree, `link "Home"`) || !strings.Contains(obs.Tree, "Section") {
		t.Fatalf("after scrolling the tree still starts at the top:\n%s", obs.Tree[:min(len(obs.Tree), 600)])
	}
	act := firstButton(t, obs)
	if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: act}); out.Result != drivers.SamePage {
		t.Fatalf("click in the scrolled view: %+v", out)
	}
	full := observe(t, tabs, drivers.ObserveOptions{FullPage: true, MaxChars: 2_000_000})
	if full.Truncated || !strings.Contains(full.Tree, "Section 299") || !strings.Contains(full.Tree, `link "Home"`) {
		t.Fatalf("full observation: truncated=%v, %d chars", full.Truncated, len(full.Tree))
	}
	if len(full.Refs) < benchSections*7 { // every link, button, field and heading
		t.Fatalf("full observation has %d refs", len(full.Refs))
	}
}

func firstButton(t *testing.T, obs *drivers.Observation) *drivers.Target {
	for _, tg := range obs.Refs {
		if tg.Role == "button" && strings.HasPrefix(tg.Name, "Act ") {
			return obs.Of(tg)
		}
	}
	t.Fatalf("no button in:\n%s", obs.Tree)
	return nil
}

func tail(s string) string { return s[max(0, len(s)-400):] }

func TestInFrameTargets(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/outer", "Outer", `<p>outer</p><iframe src="/inner" width="400" height="200"></iframe>`)
	s.page("/inner", "Inner", `<button onclick="fetch('/from-frame')">Inside</button>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/outer")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	btn := target(t, obs, "button", "Inside")
	if !strings.HasPrefix(btn.Ref, "e") || strings.HasPrefix(btn.Ref, "f") || btn.Fingerprint == "" {
		t.Fatalf("the framed button: %+v", btn)
	}
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: btn})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}})
	// The button's handler fetches once the click lands: the fetch reaches
	// the server in its own time, after the click has been answered.
	for deadline := time.Now().Add(15 * time.Second); s.hit("GET /from-frame") == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if s.hit("GET /from-frame") != 1 {
		t.Fatalf("the click in the frame did not land: %s", s.allHits())
	}
}

// find searches the page's frames too, and frames inside them: a button
// only a frame holds is found, numbered with its frame, and clicking its
// ref lands in the frame.
func TestFindLooksInFrames(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/outer", "Outer", `<p>outer</p><iframe src="/inner" width="400" height="200"></iframe>`)
	s.page("/inner", "Inner", `<button onclick="fetch('/from-frame')">Pay now</button><iframe src="/deeper"></iframe>`)
	s.page("/deeper", "Deeper", `<a href="/terms">Payment terms</a>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/outer")
	deep := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Text: "Payment terms"}})
	if terms := target(t, deep, "link", "Payment terms"); terms.Frame != 2 {
		t.Fatalf("the link in the frame inside the frame: %+v\n%s", terms, deep.Tree)
	}
	found := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Role: "button", Name: "Pay"}})
	if !strings.Contains(found.Tree, "in frame 1 ("+s.URL+"/inner): 1 match") {
		t.Fatalf("the find does not say the frame:\n%s", found.Tree)
	}
	btn := target(t, found, "button", "Pay now")
	if btn.Frame != 1 {
		t.Fatalf("the framed match: %+v", btn)
	}
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: btn})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}})
	// The button's handler fetches once the click lands: the fetch reaches
	// the server in its own time, after the click has been answered.
	for deadline := time.Now().Add(15 * time.Second); s.hit("GET /from-frame") == 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if s.hit("GET /from-frame") != 1 {
		t.Fatalf("the click in the frame did not land: %s", s.allHits())
	}
}

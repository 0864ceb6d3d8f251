package extension_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
)

// counting is caller counting the evaluates it sends (eval, and evalat,
// which checks the page's address first): each is one round trip to the
// page through the extension's worker and chrome.debugger.
type counting struct {
	caller
	evals atomic.Int32
	infos atomic.Int32 // reads of a tab's state from the browser (what settled waits for)
}

// inputTabs serves drivertest's input pages on 127.0.0.1 and opens conv's
// tabs through the extension driver, with its commands counted.
func inputTabs(t *testing.T, d *daemontest.Daemon, conv string) (*httptest.Server, *counting, drivers.Tabs) {
	t.Helper()
	s := httptest.NewServer(drivertest.InputPages())
	t.Cleanup(s.Close)
	call := &counting{caller: callerOf(d)}
	return s, call, drivertest.Open(t, extdriver.New(extdriver.Config{Caller: call, CheckField: walker.CheckTyping}), conv)
}

func (c *counting) Call(ctx context.Context, method string, params any) (json.RawMessage, *messages.Error) {
	switch method {
	case "eval", "evalat":
		c.evals.Add(1)
	case "info":
		c.infos.Add(1)
	}
	return c.caller.Call(ctx, method, params)
}

// foldPage is a field and a button that counts its clicks on the body.
const foldPage = `<!doctype html><title>Fold</title><h1>Fold</h1>
<label>Name <input name="name"></label>
<button onclick="document.body.dataset.clicks = +(document.body.dataset.clicks || 0) + 1">Go</button>`

// TestAClickOrFillChecksItsElementInTheCallThatActs: on a ref of a fresh
// observation a fill and a click each take one evaluate in the page (the
// check before them took one of its own); a field whose autocomplete
// changed goes the long way and is filled; a field and a button whose
// names changed, on a page whose address changed, or that are hidden now,
// are refused with today's sentences and take no text and no click.
func TestAClickOrFillChecksItsElementInTheCallThatActs(t *testing.T) {
	c, d, _ := pairedChrome(t)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, foldPage)
	}))
	t.Cleanup(s.Close)
	call := &counting{caller: callerOf(d)}
	tabs := drivertest.Open(t, extdriver.New(extdriver.Config{Caller: call, CheckField: walker.CheckTyping}), "fold")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/fold"})
	page := pageAt(t, c, "/fold")
	state := func() string {
		return fmt.Sprint(eval(t, page, `document.querySelector('input').value + ' ' + (document.body.dataset.clicks || 0)`))
	}
	evals := func(a *drivers.Action) (int32, error) {
		call.evals.Store(0)
		_, err := tabs.Do(context.Background(), a)
		return call.evals.Load(), err
	}
	fill := func(obs *drivers.Observation, v string) *drivers.Action {
		return &drivers.Action{Kind: drivers.Fill, Target: drivertest.Target(t, obs, "textbox", "Name"), Value: v}
	}
	click := func(obs *drivers.Observation) *drivers.Action {
		return &drivers.Action{Kind: drivers.Click, Target: drivertest.Target(t, obs, "button", "Go")}
	}

	obs := drivertest.Observe(t, tabs)
	if n, err := evals(fill(obs, "Ada")); err != nil || n != 1 {
		t.Fatalf("a fill on a fresh ref: %v after %d evaluates; want it done in 1", err, n)
	}
	// The click's second evaluate reads whether it moved the page.
	if n, err := evals(click(obs)); err != nil || n != 2 {
		t.Fatalf("a click on a fresh ref: %v after %d evaluates; want it done in 1, and 1 after", err, n)
	}
	if got := state(); got != "Ada 1" {
		t.Fatalf("after the fill and the click the page holds %q; want %q", got, "Ada 1")
	}

	// Not in the fingerprint, but checked for a field: the long way reads
	// the field as it is now and fills it.
	eval(t, page, `document.querySelector('input').autocomplete = 'nickname'`)
	if n, err := evals(fill(obs, "Bea")); err != nil || n != 3 {
		t.Fatalf("a fill on a field whose autocomplete changed: %v after %d evaluates; want it done the long way, in 1 + 2", err, n)
	}

	refused := func(what string, a *drivers.Action, why string) {
		t.Helper()
		before := state()
		_, err := tabs.Do(context.Background(), a)
		if drivers.CodeOf(err) != drivers.CodeTargetGone || !strings.Contains(err.Error(), why) {
			t.Fatalf("%s gave %v; want stale_ref saying it %s", what, err, why)
		}
		if got := state(); got != before {
			t.Fatalf("%s changed the page from %q to %q", what, before, got)
		}
	}
	obs = drivertest.Observe(t, tabs)
	eval(t, page, `document.querySelector('input').setAttribute('aria-label', 'Surname'); document.querySelector('button').textContent = 'Stop'`)
	refused("a fill on a renamed field", fill(obs, "Cy"), "changed since the observation")
	refused("a click on a renamed button", click(obs), "changed since the observation")

	eval(t, page, `document.querySelector('input').removeAttribute('aria-label'); document.querySelector('button').textContent = 'Go'`)
	obs = drivertest.Observe(t, tabs)
	eval(t, page, `history.pushState(null, '', '/fold?moved')`)
	refused("a fill after the page's address changed", fill(obs, "Cy"), "belongs to a page the tab has left")
	refused("a click after the page's address changed", click(obs), "belongs to a page the tab has left")

	obs = drivertest.Observe(t, tabs)
	eval(t, page, `for (const el of document.querySelectorAll('input, button')) el.style.opacity = '0'`)
	refused("a fill on a hidden field", fill(obs, "Cy"), "is hidden now")
	refused("a click on a hidden button", click(obs), "is hidden now")
}

// TestAClickOrFillInAFrameChecksItsElementInTheCallThatActs: in a frame
// of the page's process and in one of a process of its own, a fill and a
// click on a fresh ref take one evaluate each; after the page's address
// changed in place, or with the frame gone, they are refused with
// today's sentences and nothing reaches the frames.
func TestAClickOrFillInAFrameChecksItsElementInTheCallThatActs(t *testing.T) {
	c, d, _ := pairedChrome(t)
	s, call, tabs := inputTabs(t, d, "fold-frames")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/inputs/frames"})
	page := pageAt(t, c, "/inputs/frames")
	echo := func() string { return fmt.Sprint(eval(t, page, `document.getElementById('echo').textContent`)) }
	obs := drivertest.Observe(t, tabs)
	for _, side := range []string{"near", "far"} {
		call.evals.Store(0)
		drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: drivertest.Target(t, obs, "textbox", "Word "+side), Value: "hi"})
		drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: drivertest.Target(t, obs, "button", "Press "+side)})
		if n := call.evals.Load(); n != 2 {
			t.Errorf("a fill and a click in the %s frame took %d evaluates; want one each", side, n)
		}
		want := "echo " + side + "-click=1;"
		waitFor(t, "the "+side+" frame to tell of the fill and the click", func() bool {
			return strings.Contains(echo(), want) && strings.Contains(echo(), "echo "+side+"-word=hi;")
		})
	}

	refused := func(what string, a *drivers.Action, why string) {
		t.Helper()
		before := echo()
		_, err := tabs.Do(context.Background(), a)
		if drivers.CodeOf(err) != drivers.CodeTargetGone || !strings.Contains(err.Error(), why) {
			t.Fatalf("%s gave %v; want stale_ref saying it %s", what, err, why)
		}
		if got := echo(); got != before {
			t.Fatalf("%s reached the frames: %q became %q", what, before, got)
		}
	}
	obs = drivertest.Observe(t, tabs)
	eval(t, page, `history.pushState(null, '', '/inputs/frames?moved')`)
	refused("a fill in a frame after the page's address changed", &drivers.Action{Kind: drivers.Fill,
		Target: drivertest.Target(t, obs, "textbox", "Word far"), Value: "no"}, "belongs to a page the tab has left")
	refused("a click in a frame after the page's address changed", &drivers.Action{Kind: drivers.Click,
		Target: drivertest.Target(t, obs, "button", "Press far")}, "belongs to a page the tab has left")

	obs = drivertest.Observe(t, tabs)
	eval(t, page, `document.querySelector('iframe').remove()`)
	refused("a fill in a frame that is gone", &drivers.Action{Kind: drivers.Fill,
		Target: drivertest.Target(t, obs, "textbox", "Word near"), Value: "no"}, "frame that is gone")
}

// TestAnOlderExtensionStillFillsInAFrame: a build of the extension
// without evalat answers it not_supported; a fill in a frame then goes
// the long way, checked first, and is done.
func TestAnOlderExtensionStillFillsInAFrame(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{Version: "test"})
	c := launch(t, variant(t, "tabs.js", "async evalat(p) {", "async evalatNotYet(p) {"))
	c.workerIDs(1)
	popup := c.popup(extension.ID())
	if r := pair(t, d, connect(t, popup, d.Addr())); !r.OK {
		t.Fatalf("pairing: %+v", r.Error)
	}
	waitFor(t, "the extension to connect", func() bool { return view(t, d).Connected })
	s, call, tabs := inputTabs(t, d, "older")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/inputs/frames"})
	page := pageAt(t, c, "/inputs/frames")
	obs := drivertest.Observe(t, tabs)
	call.evals.Store(0)
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: drivertest.Target(t, obs, "textbox", "Word far"), Value: "hi"})
	if n := call.evals.Load(); n != 3 {
		t.Errorf("the fill took %d evaluates; want the refused evalat, then the check and the fill", n)
	}
	waitFor(t, "the far frame to tell of the fill", func() bool {
		return strings.Contains(fmt.Sprint(eval(t, page, `document.getElementById('echo').textContent`)), "echo far-word=hi;")
	})
}

// variant copies the extension with from replaced by to in its file
// name: a build that differs there.
func variant(t testing.TB, name, from, to string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"manifest.json", "worker.js", "tabs.js", "popup.html", "popup.js", "popup.css"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if f == name {
			changed := strings.Replace(string(b), from, to, 1)
			if changed == string(b) {
				t.Fatalf("%s has no %q", name, from)
			}
			b = []byte(changed)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// pageAt is the page of Chrome whose address ends with suffix: the agent's
// tab, as a test reads it.
func pageAt(t testing.TB, c *chrome, suffix string) pw.Page {
	t.Helper()
	// Playwright learns of a tab the extension opened, and of where it went,
	// from events that can trail the extension's answer on a busy machine.
	var at pw.Page
	waitFor(t, "a page of Chrome at "+suffix, func() bool {
		for _, p := range c.ctx.Pages() {
			if strings.HasSuffix(p.URL(), suffix) {
				at = p
				return true
			}
		}
		return false
	})
	return at
}

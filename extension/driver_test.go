package extension_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/actors/extconn"
	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/egress"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/extension/chrometest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// caller sends the driver's commands through the daemon's extension
// connection, as the daemon's mode does (extconn.Client). With
// BUDDI_TRACE_EXTENSION set it prints each command and how long it took.
type caller struct{ extconn.Client }

func callerOf(d *daemontest.Daemon) caller {
	return caller{d.Extension()}
}

func (c caller) Call(ctx context.Context, method string, params any) (json.RawMessage, *messages.Error) {
	t0 := time.Now()
	r, e := c.Client.Call(ctx, method, params)
	if os.Getenv("BUDDI_TRACE_EXTENSION") != "" {
		b, _ := json.Marshal(params)
		fmt.Printf("CALL %v %s %.150s\n", time.Since(t0), method, b)
	}
	return r, e
}

// pairedChrome is real headless Chromium with the extension loaded and
// paired with a real buddi; popup is the extension's own page.
func pairedChrome(t testing.TB) (*chrome, *daemontest.Daemon, pw.Page) {
	t.Helper()
	d := daemontest.Start(t, "", daemon.Options{Version: "test"})
	c, popup := pairWith(t, d)
	return c, d, popup
}

// pairWith launches Chromium with the extension and pairs it with d.
func pairWith(t testing.TB, d *daemontest.Daemon) (*chrome, pw.Page) {
	t.Helper()
	src, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	c := launch(t, src)
	c.workerIDs(1)
	popup := c.popup(extension.ID())
	code := connect(t, popup, d.Addr())
	if r := pair(t, d, code); !r.OK {
		t.Fatalf("pairing: %+v", r.Error)
	}
	waitFor(t, "the extension to connect", func() bool { return view(t, d).Connected })
	return c, popup
}

// site serves the pages the tests drive; flip makes /hop's page go to
// /form by itself (a redirect between observing and acting).
type site struct {
	*httptest.Server
	flip atomic.Bool
}

func serve(t testing.TB) *site {
	s := &site{}
	page := func(title, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><title>%s</title><body>%s</body>", title, body)
		}
	}
	mux := http.NewServeMux()
	mux.Handle("/links", page("Links", `<h1>Start</h1><p><a href="/done">Next page</a></p>`))
	mux.Handle("/form", page("Form", `<h1>Order</h1><form action="/done" method="get">
		<label>Name <input name="name"></label>
		<label>Colour <select name="colour"><option>Red</option><option>Green</option></select></label>
		<label>Password <input type="password" name="pw"></label>
		<button type="submit">Send</button></form>`))
	mux.Handle("/done", page("Done", `<h1>Thanks</h1><p id="q"></p><script>document.getElementById('q').textContent = location.search</script>`))
	mux.Handle("/hop", page("Hop", `<h1>Hop</h1><button onclick="document.title='clicked'">Stay</button>
		<script>setInterval(async () => { if ((await (await fetch('/flip')).text()) === 'go') location.href = '/form'; }, 100)</script>`))
	mux.Handle("/count", page("Count", `<h1>Counter</h1><p>Clicked <output>0</output> times</p>
		<button onclick="const o = document.querySelector('output'); o.textContent = +o.textContent + 1">Add one</button>`))
	mux.Handle("/jump", http.RedirectHandler("/blocked", http.StatusFound))
	mux.Handle("/blocked", page("Blocked", `<h1>Not for agents</h1>`))
	mux.Handle("/inputs/", drivertest.InputPages())
	mux.HandleFunc("/flip", func(w http.ResponseWriter, _ *http.Request) {
		if s.flip.Load() {
			_, _ = io.WriteString(w, "go")
		}
	})
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// TestDriverContractInYourBrowser runs the driver contract suite on the
// extension driver, in real Chromium through the real extension.
func TestDriverContractInYourBrowser(t *testing.T) {
	_, d, _ := pairedChrome(t)
	s := serve(t)
	drv := extdriver.New(extdriver.Config{Caller: callerOf(d), CheckField: walker.CheckTyping})
	drivertest.Run(t, drv, drivertest.Site{
		Links: s.URL + "/links", Link: "Next page",
		Form: s.URL + "/form", Field: "Name", Choice: "Colour", Option: "Green", Button: "Send",
		Inputs: s.URL + "/inputs/", Popups: true,
	})
}

// TestModeContractInYourBrowser runs the mode contract on Your browser,
// in real Chromium through the real extension, as the daemon builds it.
func TestModeContractInYourBrowser(t *testing.T) {
	_, d, _ := pairedChrome(t)
	drivertest.RunMode(t, extdriver.NewMode(extdriver.Config{Caller: d.Extension(), CheckField: walker.CheckTyping}))
}

// TestAgentTabsFollowTheOwnersRules: the conversation's tabs are a buddi
// group in the background; a form is filled and sent through the
// debugger; a redirect between observing and acting refuses the click; a
// tab the owner is looking at takes no input; a tab dragged out of the
// group is the owner's; close removes the group's tabs.
func TestAgentTabsFollowTheOwnersRules(t *testing.T) {
	_, d, popup := pairedChrome(t)
	s := serve(t)
	var refusedURL atomic.Value
	drv := extdriver.New(extdriver.Config{Caller: callerOf(d), CheckField: func(f extdriver.Field, _ string) error {
		if f.Type == "password" {
			return &drivers.Error{Code: messages.CodeCredential, Message: "buddi does not type into password fields."}
		}
		return nil
	}, CheckURL: func(raw string) error {
		if strings.Contains(raw, "/blocked") {
			return &drivers.Error{Code: messages.CodeAirGap, Message: "Air-gap is on."}
		}
		return nil
	}, OnRefused: func(conv, url string, _ error) { refusedURL.Store(conv + " " + url) }})
	tabs := drivertest.Open(t, drv, "owner-rules")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/form"})
	obs := drivertest.Observe(t, tabs)
	id := strings.TrimPrefix(obs.Tab, "t")
	group := eval(t, popup, `chrome.tabs.get(`+id+`).then(async (t) => t.active ? 'active' : (await chrome.tabGroups.get(t.groupId)).title)`)
	if group != "buddi" {
		t.Fatalf("the agent's tab is %v; want a background tab in a group named buddi", group)
	}

	// Fill, choose and send through the debugger.
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: drivertest.Target(t, obs, "textbox", "Name"), Value: "Ada"})
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Select, Target: drivertest.Target(t, obs, "combobox", "Colour"), Values: []string{"Green"}})
	_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Fill, Target: drivertest.Target(t, obs, "textbox", "Password"), Value: "hunter2"})
	if drivers.CodeOf(err) != messages.CodeCredential {
		t.Fatalf("filling a password field gave %v; want %s", err, messages.CodeCredential)
	}
	out := drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: drivertest.Target(t, obs, "button", "Send")})
	if out.Result != drivers.Navigated || !strings.Contains(out.URL, "name=Ada") || !strings.Contains(out.URL, "colour=Green") {
		t.Fatalf("the click on Send: %+v; want the form sent with name=Ada and colour=Green", out)
	}

	// A redirect to a page the rules refuse: the tab is left on a blank
	// page, and the refusal is recorded with its conversation.
	_, err = tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/jump"})
	if drivers.CodeOf(err) != messages.CodeAirGap {
		t.Fatalf("a redirect to a refused page gave %v; want %s", err, messages.CodeAirGap)
	}
	if got := drivertest.Observe(t, tabs); got.URL != "about:blank" || refusedURL.Load() != "owner-rules "+s.URL+"/blocked" {
		t.Fatalf("after the refused redirect the tab is at %s and the record says %v", got.URL, refusedURL.Load())
	}

	// A redirect between observing and acting: the click is refused.
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/hop"})
	stay := drivertest.Target(t, drivertest.Observe(t, tabs), "button", "Stay")
	s.flip.Store(true)
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{URL: "/form"}, Timeout: 10 * time.Second})
	s.flip.Store(false)
	if _, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Click, Target: stay}); drivers.CodeOf(err) != drivers.CodeTargetGone {
		t.Fatalf("a click on a ref read before a redirect gave %v; want %s", err, drivers.CodeTargetGone)
	}

	// The owner looks at the agent's tab: input is refused, reading is not.
	obs = drivertest.Observe(t, tabs)
	eval(t, popup, `chrome.tabs.update(`+id+`, {active: true}).then((t) => chrome.windows.update(t.windowId, {focused: true})).then(() => true)`)
	_, err = tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Fill, Target: drivertest.Target(t, obs, "textbox", "Name"), Value: "Bob"})
	if drivers.CodeOf(err) != drivers.CodeNotAllowed || !strings.Contains(err.Error(), "looking at") {
		t.Fatalf("input into the tab the owner looks at gave %v; want it refused", err)
	}
	drivertest.Observe(t, tabs)
	if err := popup.BringToFront(); err != nil { // the owner moves on
		t.Fatal(err)
	}
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: drivertest.Target(t, obs, "textbox", "Name"), Value: "Bob"})

	// Dragged out of the group, the tab is the owner's: no reading, no input, no close.
	eval(t, popup, `chrome.tabs.ungroup(`+id+`).then(() => true)`)
	if _, err := tabs.Observe(context.Background(), drivers.ObserveOptions{}); drivers.CodeOf(err) != drivers.CodeNotAllowed {
		t.Fatalf("observing a tab dragged out of the group gave %v; want it refused", err)
	}
	if _, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.TabAction, TabOp: "close", TabID: obs.Tab}); err == nil {
		t.Fatal("the agent closed a tab the owner dragged out of its group")
	}
	if n := eval(t, popup, `chrome.tabs.get(`+id+`).then(() => 1, () => 0)`); fmt.Sprint(n) != "1" {
		t.Fatalf("the owner's tab is gone (%v)", n)
	}

	// Close removes the group's tabs and leaves the owner's.
	other := drivertest.Open(t, drv, "owner-rules-2")
	oo := drivertest.Observe(t, other)
	if err := other.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := eval(t, popup, `chrome.tabs.get(`+strings.TrimPrefix(oo.Tab, "t")+`).then(() => 1, () => 0)`); fmt.Sprint(n) != "0" {
		t.Fatal("close left the conversation's tab open")
	}
	if n := eval(t, popup, `chrome.tabs.get(`+id+`).then(() => 1, () => 0)`); fmt.Sprint(n) != "1" {
		t.Fatal("close of another conversation closed the owner's tab")
	}
}

// TestAnAgentWorksInYourBrowser is the whole path: the owner switches
// to Your browser, an agent's task observes, fills and sends a form in a
// background tab of the owner's Chrome through the HTTP API, a page the
// rules refuse is not opened, and release closes the conversation's tabs.
func TestAnAgentWorksInYourBrowser(t *testing.T) {
	s := serve(t)
	d := daemontest.Start(t, "", daemon.Options{Version: "test",
		Config: config.Config{Egress: egress.Config{PreviewOrigins: []string{s.URL}}}})
	_, popup := pairWith(t, d)
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"mode": "extension"})
	tok := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 40)
	agentTabs := func() string {
		return fmt.Sprint(eval(t, popup, `chrome.tabGroups.query({title: 'buddi'}).then(async (gs) => { let n = 0; for (const g of gs) n += (await chrome.tabs.query({groupId: g.id})).length; return n; })`))
	}

	act := func(input map[string]any) map[string]any {
		t.Helper()
		r := d.Act(t, tok, "c1", input)
		if !r.OK {
			t.Fatalf("%v: %s: %s", input["action"], r.Code(), r.Error.Message)
		}
		return r.Map()
	}
	act(map[string]any{"action": "navigate", "url": s.URL + "/form"})
	if n := agentTabs(); n != "1" {
		t.Fatalf("the task works in %s tabs of buddi's groups; want 1", n)
	}
	obs := d.Observe(t, tok, "c1")
	id := daemontest.ID(obs)
	ref := func(role, name string) map[string]any {
		return map[string]any{"ref": daemontest.Ref(t, obs, role, name)}
	}
	act(map[string]any{"action": "fill", "observation": id, "target": ref("textbox", "Name"), "value": "Ada"})
	res := act(map[string]any{"action": "click", "observation": id, "target": ref("button", "Send")})
	if res["outcome"] != "navigated" || !strings.Contains(fmt.Sprint(res["url"]), "name=Ada") {
		t.Fatalf("the click on Send gave %v at %v; want the form sent", res["outcome"], res["url"])
	}
	if r := d.Act(t, tok, "c1", map[string]any{"action": "navigate", "url": "http://10.1.2.3/"}); r.OK || r.Code() != messages.CodePrivate {
		t.Fatalf("navigating to a private address in Your browser: %+v; want %s", r, messages.CodePrivate)
	}
	r := d.Tool(t, tok, "browser.status", "c1", map[string]any{})
	var st struct {
		Browser messages.BrowserStatus `json:"browser"`
	}
	if err := json.Unmarshal(r.Result, &st); err != nil || st.Browser.Driver != "extension" || !st.Browser.Found {
		t.Fatalf("browser.status says %s in Your browser; want the extension driver, found", r.Result)
	}
	d.Must(t, "POST", "/api/browser/release", map[string]any{"conversation": "c1"})
	waitFor(t, "release to close the conversation's tabs", func() bool { return agentTabs() == "0" })
}

// TestTheOwnersHandDrivesAnAgentTabInYourBrowser: Chrome's screencast of
// the agent's tab reaches buddi through the extension, the owner's hand
// clicks in it even while they look at the tab (the rule that holds
// agents back does not hold the owner), and with the screencast stopped
// the hand's input is refused.
func TestTheOwnersHandDrivesAnAgentTabInYourBrowser(t *testing.T) {
	c, d, popup := pairedChrome(t)
	s := serve(t)
	drv := extdriver.New(extdriver.Config{Caller: callerOf(d)})
	tabs := drivertest.Open(t, drv, "hand")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/hop"})
	obs := drivertest.Observe(t, tabs)
	eval(t, popup, `chrome.tabs.update(`+strings.TrimPrefix(obs.Tab, "t")+`, {active: true}).then(() => true)`)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pin, err := tabs.(drivers.Screencaster).Pin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pin.Unpin()
	frames := make(chan *drivers.CastFrame, 64)
	sink := func(f *drivers.CastFrame) {
		select {
		case frames <- f:
		default:
		}
	}
	if err := pin.Cast(ctx, drivers.CastOptions{MaxWidth: 800, MaxHeight: 600, Quality: 50}, sink); err != nil {
		t.Fatal(err)
	}
	select {
	case f := <-frames:
		if len(f.JPEG) < 2 || f.JPEG[0] != 0xFF || f.Header.PageWidth == 0 {
			t.Fatalf("the first frame: %d bytes, page %dx%d", len(f.JPEG), f.Header.PageWidth, f.Header.PageHeight)
		}
	case <-ctx.Done():
		t.Fatal("no frame of the agent's tab reached buddi")
	}

	// Where the button is, read from the page as the owner's Chrome shows it.
	page := pageAt(t, c, "/hop")
	box, err := page.Locator("button").BoundingBox()
	if err != nil || box == nil {
		t.Fatalf("the button's box: %v", err)
	}
	x, y := box.X+box.Width/2, box.Y+box.Height/2
	raw := pin.(drivers.RawInput)
	for _, in := range []*handwire.Input{
		{Kind: handwire.Move, X: x, Y: y},
		{Kind: handwire.Down, X: x, Y: y, Button: handwire.ButtonLeft},
		{Kind: handwire.Up, X: x, Y: y, Button: handwire.ButtonLeft},
	} {
		if err := raw.Input(ctx, in); err != nil {
			t.Fatalf("the hand's %s: %v", in.Kind, err)
		}
	}
	waitFor(t, "the owner's click to reach the page", func() bool { return drivertest.Observe(t, tabs).Title == "clicked" })

	if err := pin.StopCast(ctx); err != nil {
		t.Fatal(err)
	}
	err = raw.Input(ctx, &handwire.Input{Kind: handwire.Down, X: x, Y: y, Button: handwire.ButtonLeft})
	if drivers.CodeOf(err) != messages.CodeNoHand {
		t.Fatalf("the hand's input with no screencast running gave %v; want %s", err, messages.CodeNoHand)
	}
}

// stalling copies the extension with a worker whose status command never
// answers: a build that hangs on a command.
func stalling(t testing.TB) string {
	t.Helper()
	return variant(t, "worker.js", "if (m.method === 'status') {", "if (m.method === 'status') {\n      await new Promise(() => {});")
}

// TestACommandTheBrowserNeverAnswersIsAbandoned: with a build that
// stalls, the command fails with its sentence once the wait is over, the
// extension is told to abandon it and confirms, and the next command is
// answered (buddi sends nothing else until the abandon is confirmed).
func TestACommandTheBrowserNeverAnswersIsAbandoned(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{Version: "test", Extension: extconn.Limits{CommandWait: 3 * time.Second, Tick: 100 * time.Millisecond,
		AbandonWait: time.Hour}}) // the next command can go only once the abandon is confirmed
	c := launch(t, stalling(t))
	c.workerIDs(1)
	popup := c.popup(extension.ID())
	if r := pair(t, d, connect(t, popup, d.Addr())); !r.OK {
		t.Fatalf("pairing: %+v", r.Error)
	}
	waitFor(t, "the extension to connect", func() bool { return view(t, d).Connected })

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, e := d.Extension().Call(ctx, "status", nil)
	if e == nil || e.Code != messages.CodeTimeout || !strings.Contains(e.Message, "abandon") {
		t.Fatalf("a command the browser never answers gave %+v; want a timeout saying it was abandoned", e)
	}
	res, e := d.Extension().Call(ctx, "tabs", map[string]string{"conv": "none"})
	if e != nil || !strings.Contains(string(res), `"tabs"`) {
		t.Fatalf("the command after the abandon: %s %+v", res, e)
	}
	if !view(t, d).Connected {
		t.Fatal("the connection closed over an abandoned command")
	}
}

// TestATakeOverWithYourBrowserOfflineSaysSo: with the extension connected
// a take-over has a page to drive; with it gone the take-over still
// pauses the agent and says the browser is offline.
func TestATakeOverWithYourBrowserOfflineSaysSo(t *testing.T) {
	s := serve(t)
	d := daemontest.Start(t, "", daemon.Options{Version: "test",
		Config: config.Config{Egress: egress.Config{PreviewOrigins: []string{s.URL}}}})
	pairWith(t, d)
	d.Must(t, "POST", "/api/settings/browser", map[string]any{"mode": "extension"})
	tok := d.AddAgent(t, "ada", true)
	d.Task(t, "ada", "c1", 40)
	if r := d.Act(t, tok, "c1", map[string]any{"action": "navigate", "url": s.URL + "/form"}); !r.OK {
		t.Fatalf("navigate: %s", r.Error.Message)
	}
	takeOver := func() map[string]any {
		t.Helper()
		return d.Must(t, "POST", "/api/browser/takeover", map[string]any{"conversation": "c1"}).Map()
	}
	if got := takeOver(); got["state"] != "taken_over" || got["handReason"] != nil {
		t.Fatalf("a take-over with the extension connected: %v", got)
	}
	d.Must(t, "POST", "/api/browser/resume", map[string]any{"conversation": "c1"})
	d.Must(t, "POST", "/api/extension/forget", nil)
	waitFor(t, "the extension to go", func() bool { return !view(t, d).Connected })
	if got := takeOver(); got["state"] != "taken_over" || got["handReason"] != messages.HandBrowserOffline {
		t.Fatalf("a take-over with the extension offline: %v; want handReason %s", got, messages.HandBrowserOffline)
	}
}

// TestADroppedConnectionLeavesTheTabsToTheOwner: when the extension's
// worker is stopped (its socket drops with it) and comes back, the
// conversation's tab stays open and is the owner's; buddi forgets it and
// its refs, says so once, and goes on in a new blank tab; closing the
// conversation leaves the owner's tab alone.
func TestADroppedConnectionLeavesTheTabsToTheOwner(t *testing.T) {
	c, d, popup := pairedChrome(t)
	s := serve(t)
	tabs := drivertest.Open(t, extdriver.New(extdriver.Config{Caller: callerOf(d)}), "drop")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/form"})
	old := drivertest.Observe(t, tabs)

	chrometest.StopWorkers(t, c.ctx, popup)
	waitFor(t, "buddi to see the worker gone", func() bool { return !view(t, d).Connected })
	if _, err := c.ctx.NewPage(); err != nil { // a tab event wakes the worker
		t.Fatal(err)
	}
	waitFor(t, "the worker to reconnect", func() bool { return view(t, d).Connected })

	_, err := tabs.Observe(context.Background(), drivers.ObserveOptions{})
	if drivers.CodeOf(err) != drivers.CodeTabGone || !strings.Contains(err.Error(), "dropped") {
		t.Fatalf("the first observation after the drop gave %v; want tab_gone saying the connection dropped", err)
	}
	now := drivertest.Observe(t, tabs)
	if now.Tab == old.Tab || now.URL != "about:blank" {
		t.Fatalf("after the drop the conversation reads %s in %s; want a new blank tab, not %s", now.URL, now.Tab, old.Tab)
	}
	if err := tabs.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	oldID := strings.TrimPrefix(old.Tab, "t")
	if n := eval(t, popup, `chrome.tabs.get(`+oldID+`).then(() => 1, () => 0)`); fmt.Sprint(n) != "1" {
		t.Fatal("closing the conversation closed the tab buddi had let go of")
	}
}

// TestYourBrowserReadsRealDocumentation: pages others wrote (The Rust
// Programming Language and Go's specification, served on 127.0.0.1) read
// through the extension as a person sees them: the article on screen, the
// chapter's Next link found and followed, a section of the specification
// found by its heading.
func TestYourBrowserReadsRealDocumentation(t *testing.T) {
	_, d, _ := pairedChrome(t)
	docs := httptest.NewServer(browsertest.NewDocs(t).Mux)
	t.Cleanup(docs.Close)
	tabs := drivertest.Open(t, extdriver.New(extdriver.Config{Caller: callerOf(d)}), "docs")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: docs.URL + "/book/ch04-01-what-is-ownership.html"})
	obs := drivertest.Observe(t, tabs)
	for _, want := range []string{`heading "What Is Ownership?"`, "Ownership is a set of rules"} {
		if !strings.Contains(obs.Tree, want) {
			t.Fatalf("the article a person sees is missing %q:\n%s", want, obs.Tree)
		}
	}
	found, err := tabs.Observe(context.Background(), drivers.ObserveOptions{Find: &drivers.Query{Role: "link", Name: "Next chapter", Exact: true}})
	if err != nil {
		t.Fatal(err)
	}
	out := drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: drivertest.Target(t, found, "link", "Next chapter")})
	if out.Result != drivers.Navigated || !strings.HasSuffix(out.URL, "ch04-02-references-and-borrowing.html") {
		t.Fatalf("clicking the found Next chapter link: %+v", out)
	}
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: docs.URL + "/ref/spec"})
	found, err = tabs.Observe(context.Background(), drivers.ObserveOptions{Find: &drivers.Query{Role: "heading", Name: "Method values", Exact: true}})
	if err != nil || !strings.Contains(found.Tree, "1 match") || !strings.Contains(found.Tree, `in: "Expressions" [ref=`) {
		t.Fatalf("find in the specification: %v\n%s", err, found.Tree)
	}
}

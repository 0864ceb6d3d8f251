package webtest_test

import (
	"strconv"
	"sync"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

type in = map[string]any

// owner is a buddi started in process for the test (the simulated agents'
// browser unless the options say otherwise) and the owner's browser on it.
type owner struct {
	*daemontest.Daemon
	*webtest.Dashboard
}

// start starts buddi with o and points the owner's browser at it.
func start(t testing.TB, o daemon.Options) *owner {
	t.Helper()
	d := daemontest.Start(t, "", o)
	return &owner{Daemon: d, Dashboard: webtest.Open(t, d)}
}

// agent adds agent with a task in conv and returns its token.
func agent(t *testing.T, o *owner, name, conv string) string {
	t.Helper()
	tok := o.AddAgent(t, name, false)
	o.Task(t, name, conv, 80)
	return tok
}

// navigate has the agent open a page of the simulated site.
func navigate(t *testing.T, o *owner, tok, conv string, page int) {
	t.Helper()
	r := o.Act(t, tok, conv, in{"action": "navigate", "url": sim.Origin + "/p/" + strconv.Itoa(page)})
	if !r.OK {
		t.Fatalf("navigate: %s: %s", r.Code(), r.Error.Message)
	}
}

// goTo opens a route of the dashboard.
func goTo(t *testing.T, o *owner, p pw.Page, route string) {
	t.Helper()
	if _, err := p.Goto(o.Base + "/" + route); err != nil {
		t.Fatal(err)
	}
}

// card is the session card of conv on the Host browser page.
func card(p pw.Page, conv string) pw.Locator {
	return p.Locator(`article.session[data-conversation="` + conv + `"]`)
}

func text(t *testing.T, l pw.Locator) string {
	t.Helper()
	s, err := l.First().TextContent()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// said waits for l's answer line to hold want.
func said(t *testing.T, l pw.Locator, want string) {
	t.Helper()
	webtest.Visible(t, l.Locator(".said", pw.LocatorLocatorOptions{HasText: want}))
}

// askSites is a configuration where agents ask before opening a new site.
func askSites() config.Config { return config.Config{SiteApproval: "ask"} }

// shop is a copy of the simulated site at a public-looking host: not a
// preview origin, so site approval applies to it.
const shop = "https://shop.example.com"

// askOpts start a daemon that asks about sites, whose simulated browser
// also serves shop.
func askOpts() daemon.Options {
	return daemon.Options{Config: askSites(), Mode: sim.NewMode(sim.Config{Hosts: []string{"shop.example.com"}}, 1)}
}

// notice waits for the page's notice to say want (a control whose card
// went away with the decision says what happened there).
func notice(t *testing.T, p pw.Page, want string) {
	t.Helper()
	webtest.Visible(t, p.Locator(".notice", pw.PageLocatorOptions{HasText: want}))
}

// heldEvents stands between the dashboard and its event socket: while held,
// what buddi sends waits, and release delivers it in order.
type heldEvents struct {
	mu      sync.Mutex
	held    bool
	waiting []any
	page    pw.WebSocketRoute
}

func newHeldEvents(t *testing.T, p pw.Page) *heldEvents {
	t.Helper()
	h := &heldEvents{}
	err := p.RouteWebSocket("**/api/events", func(ws pw.WebSocketRoute) {
		server, err := ws.ConnectToServer()
		if err != nil {
			return
		}
		h.mu.Lock()
		h.page = ws
		h.mu.Unlock()
		server.OnMessage(func(m any) {
			h.mu.Lock()
			defer h.mu.Unlock()
			if h.held && h.page == ws {
				h.waiting = append(h.waiting, m)
				return
			}
			ws.Send(m)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *heldEvents) hold() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = true
}

func (h *heldEvents) release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = false
	for _, m := range h.waiting {
		h.page.Send(m)
	}
	h.waiting = nil
}

package webtest_test

import (
	"strconv"
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
// what buddi sends waits in the page, and release delivers it in order. It
// is done in the page (a listener on the socket ahead of the dashboard's),
// not with Playwright's WebSocket route, whose playwright-go handlers race.
type heldEvents struct {
	t    *testing.T
	page pw.Page
}

// holdEvents is the script that wraps the page's WebSocket: a message on
// /api/events that arrives while window.__events.held is kept,
// window.__events.release() hands what was kept to the dashboard, and
// window.__events.lose() throws it away and closes the socket, as a
// dropped connection does (the dashboard opens another, which starts with
// a hello).
const holdEvents = `(() => {
  const Real = window.WebSocket;
  const h = { held: false, waiting: [], passing: false, release() {}, lose() {} };
  window.__events = h;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(url, protocols);
      if (!String(url).includes("/api/events")) return;
      this.addEventListener("message", (ev) => {
        if (h.passing || !h.held) return;
        ev.stopImmediatePropagation();
        h.waiting.push(ev.data);
      });
      h.lose = () => {
        h.held = false;
        h.waiting = [];
        this.close();
      };
      h.release = () => {
        h.held = false;
        h.passing = true;
        try {
          for (const data of h.waiting.splice(0)) this.dispatchEvent(new MessageEvent("message", { data }));
        } finally {
          h.passing = false;
        }
      };
    }
  };
})()`

func newHeldEvents(t *testing.T, p pw.Page) *heldEvents {
	t.Helper()
	if err := p.AddInitScript(pw.Script{Content: pw.String(holdEvents)}); err != nil {
		t.Fatal(err)
	}
	return &heldEvents{t: t, page: p}
}

func (h *heldEvents) hold() {
	h.t.Helper()
	if _, err := h.page.Evaluate("window.__events.held = true"); err != nil {
		h.t.Fatal(err)
	}
}

// lose throws away what was held and drops the socket.
func (h *heldEvents) lose() {
	h.t.Helper()
	if _, err := h.page.Evaluate("window.__events.lose()"); err != nil {
		h.t.Fatal(err)
	}
}

func (h *heldEvents) release() {
	h.t.Helper()
	if _, err := h.page.Evaluate("window.__events.release()"); err != nil {
		h.t.Fatal(err)
	}
}

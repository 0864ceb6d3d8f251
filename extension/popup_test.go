package extension_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/drivertest"
	extdriver "github.com/buddi-dev/buddi/drivers/extension"
	"github.com/buddi-dev/buddi/messages"
)

// openerPage opens tabs: by links with target=_blank and by window.open.
const openerPage = `<!doctype html><title>Opener</title><h1>Opener</h1>
<p><a href="/fine" target="_blank">Fine in a new tab</a></p>
<p><a href="/blocked" target="_blank">Blocked in a new tab</a></p>
<button onclick="window.open('/fine?by=script')">Open by script</button>`

// TestATabTheAgentsPageOpensIsItsInTheBackground: a link to a new tab and
// window.open each answer navigated with the new tab, which becomes the
// conversation's active tab; the tab the owner was looking at stays in
// front (Chrome shows a link's new tab in front, buddi gives the front
// back); a new tab the owner's rules refuse is closed, is refused to the
// agent, and leaves the opener active.
func TestATabTheAgentsPageOpensIsItsInTheBackground(t *testing.T) {
	_, d, owner := pairedChrome(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/opener", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, openerPage) })
	mux.HandleFunc("/fine", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>Fine</title><p>Fine")
	})
	mux.HandleFunc("/blocked", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "<!doctype html><title>Blocked</title>") })
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	drv := extdriver.New(extdriver.Config{Caller: callerOf(d), CheckURL: func(raw string) error {
		if strings.Contains(raw, "/blocked") {
			return &drivers.Error{Code: messages.CodeAirGap, Message: "Air-gap is on."}
		}
		return nil
	}})
	tabs := drivertest.Open(t, drv, "popups")
	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: s.URL + "/opener"})
	opener := drivertest.Observe(t, tabs).Tab
	if err := owner.BringToFront(); err != nil {
		t.Fatal(err)
	}
	inFront := func() bool { return eval(t, owner, `chrome.tabs.getCurrent().then((t) => t.active)`) == true }
	if !inFront() {
		t.Fatal("the owner's page is not in front before any input")
	}

	open := func(role, name, url string, n int) {
		t.Helper()
		drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "switch", TabID: opener})
		obs := drivertest.Observe(t, tabs)
		out := drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: drivertest.Target(t, obs, role, name)})
		if out.Result != drivers.Navigated || !strings.HasSuffix(out.URL, url) || out.Title != "Fine" || len(out.Tabs) != n {
			t.Fatalf("%s answered %s at %s titled %q with %d tabs; want navigated at …%s titled Fine with %d", name, out.Result, out.URL, out.Title, len(out.Tabs), url, n)
		}
		for _, tb := range out.Tabs {
			if tb.Active != strings.HasSuffix(tb.URL, url) {
				t.Fatalf("%s: the tabs say %+v; want the new tab the active one", name, out.Tabs)
			}
		}
		if got := drivertest.Observe(t, tabs); !strings.HasSuffix(got.URL, url) || got.Tab == opener {
			t.Fatalf("%s: the next observation is of %s at %s; want the new tab", name, got.Tab, got.URL)
		}
		if !inFront() {
			t.Fatalf("%s: the new tab took the front from the owner's page", name)
		}
	}
	open("link", "Fine in a new tab", "/fine", 2)
	open("button", "Open by script", "/fine?by=script", 3)

	drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "switch", TabID: opener})
	obs := drivertest.Observe(t, tabs)
	_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Click, Target: drivertest.Target(t, obs, "link", "Blocked in a new tab")})
	if drivers.CodeOf(err) != messages.CodeAirGap {
		t.Fatalf("a link to a refused page in a new tab gave %v; want %s", err, messages.CodeAirGap)
	}
	after := drivertest.Do(t, tabs, &drivers.Action{Kind: drivers.TabAction, TabOp: "list"})
	if len(after.Tabs) != 3 || after.URL != obs.URL {
		t.Fatalf("after the refused new tab the tabs are %+v (active at %s); want the three before, the opener active", after.Tabs, after.URL)
	}
	if !inFront() {
		t.Fatal("the refused new tab took the front from the owner's page")
	}
}

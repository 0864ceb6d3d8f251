package webtest_test

import (
	"slices"
	"testing"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/web/webtest"
)

// TestTheOwnerListsTheAppsOfUseMyApps: Settings shows the browser app and
// the allowed apps and saves a new list, one id a line, without repeats; a
// list that is not app ids is refused on the page.
func TestTheOwnerListsTheAppsOfUseMyApps(t *testing.T) {
	o, p := appsSettings(t)
	typeAllowedApps(t, p, "org.gnome.Calculator\nnot an id!")
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Save apps"}))
	webtest.Visible(t, p.Locator(".said.bad", pw.PageLocatorOptions{HasText: "is not an app id"}))

	typeAllowedApps(t, p, "com.google.Chrome\norg.gnome.Calculator\norg.gnome.Calculator")
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Save apps"}))
	webtest.Visible(t, p.Locator(".said", pw.PageLocatorOptions{HasText: "2 apps are allowed"}))
	if got := allowedApps(t, o); !slices.Equal(got, []string{"com.google.Chrome", "org.gnome.Calculator"}) {
		t.Fatalf("the allowed apps are %v", got)
	}
}

// appsSettings signs the owner in to Settings → Computer & browser of a
// new daemon.
func appsSettings(t *testing.T) (*owner, pw.Page) {
	t.Helper()
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	goTo(t, o, p, "#/settings/browser")
	webtest.Visible(t, p.Locator(`textarea[name=allowedApps]`))
	return o, p
}

// typeAllowedApps types text into the allowed apps' field, as the owner does.
func typeAllowedApps(t *testing.T, p pw.Page, text string) {
	t.Helper()
	if err := p.Locator(`textarea[name=allowedApps]`).Fill(text); err != nil {
		t.Fatal(err)
	}
}

// allowedApps is the list buddi saved.
func allowedApps(t *testing.T, o *owner) []string {
	t.Helper()
	var s messages.BrowserSettings
	if err := o.Must(t, "GET", "/api/settings/browser", nil).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s.AllowedApps
}

// TestTheOwnerChecksUseMyAppsPermissions: Settings checks the helper's
// permissions and requests them, and shows the helper's sentence (here,
// that there is no helper next to buddi).
func TestTheOwnerChecksUseMyAppsPermissions(t *testing.T) {
	o := start(t, daemon.Options{})
	p := o.Page(t, 1280, 900)
	o.SignIn(t, p)
	goTo(t, o, p, "#/settings/browser")
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Check permissions"}))
	webtest.Visible(t, p.Locator(".permissions .bad", pw.PageLocatorOptions{HasText: "No computer-control helper"}))
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Request permissions"}))
	webtest.Visible(t, p.Locator(".said", pw.PageLocatorOptions{HasText: "set BUDDI_COMPUTER_HELPER"}))
}

// TestWhatTheOwnerTypesIntoUseMyAppsOutlivesARedraw: the settings page
// draws itself again whenever the sessions change (a session opens, one is
// released); the allowed apps the owner typed and has not saved stay in the
// field through both, and Save saves them.
func TestWhatTheOwnerTypesIntoUseMyAppsOutlivesARedraw(t *testing.T) {
	o, p := appsSettings(t)
	typeAllowedApps(t, p, "org.gnome.Calculator")
	tok := agent(t, o, "ada", "c1")
	if r := o.Act(t, tok, "c1", in{"action": "observe"}); !r.OK {
		t.Fatalf("observe: %+v", r.Error)
	}
	open := p.Locator(".note", pw.PageLocatorOptions{HasText: "1 session is open"})
	webtest.Visible(t, open) // drawn again as the session opened
	o.Must(t, "POST", "/api/browser/release", messages.OwnerBody{Conversation: "c1"})
	webtest.Gone(t, open) // and again as it was released
	if v, err := p.Locator(`textarea[name=allowedApps]`).InputValue(); err != nil || v != "org.gnome.Calculator" {
		t.Fatalf("after two redraws the field holds %q (%v), want what the owner typed", v, err)
	}
	webtest.Click(t, p.Locator("button", pw.PageLocatorOptions{HasText: "Save apps"}))
	webtest.Visible(t, p.Locator(".said", pw.PageLocatorOptions{HasText: "1 app is allowed"}))
	if got := allowedApps(t, o); !slices.Equal(got, []string{"org.gnome.Calculator"}) {
		t.Fatalf("the allowed apps are %v", got)
	}
}

// Package drivertest is the contract every driver passes: the sim driver,
// the Playwright driver, and every later one (extension, native). A driver's
// own tests call Run with a started driver and a Site of pages it can load;
// Run checks what the session actor relies on: one Tabs per conversation,
// observations whose refs resolve, every driver action of the action table
// dispatched (none refused as unknown), stale targets refused before input,
// closing one conversation leaving the others, and the optional
// capabilities a driver claims working.
package drivertest

import (
	"bytes"
	"context"

	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Site is where the suite's pages live: pages the driver under test loads.
type Site struct {
	// Links is a page with a link named Link whose click loads another page.
	Links, Link string
	// Form is a page with a text box named Field, a list box named Choice
	// with an option Option, and a button named Button that submits the form.
	Form, Field, Choice, Option, Button string
	// Inputs is InputPages' /inputs/ on the site's server, for the table of
	// every kind of field; "" for a driver of no web pages (sim, native).
	Inputs string
	// Popups says the driver takes a tab the page opens into the opener's
	// conversation, as the rules say popups go: its input then answers
	// with the new tab (PopupCases).
	Popups bool
}

// Run checks the driver contract against d, with pages of site.
func Run(t *testing.T, d drivers.Driver, site Site) {
	t.Run("Status", func(t *testing.T) { status(t, d) })
	t.Run("OneTabsPerConversation", func(t *testing.T) { perConversation(t, d, site) })
	t.Run("ObservationRefsResolve", func(t *testing.T) { observation(t, d, site) })
	t.Run("EveryTableActionIsDispatched", func(t *testing.T) { everyAction(t, d, site) })
	t.Run("StaleTargetIsRefused", func(t *testing.T) { staleTarget(t, d, site) })
	t.Run("CloseKeepsOtherConversations", func(t *testing.T) { closeOne(t, d, site) })
	t.Run("Capabilities", func(t *testing.T) { capabilities(t, d, site) })
	if site.Inputs != "" {
		t.Run("EveryInputKind", func(t *testing.T) { everyInput(t, d, site) })
		t.Run("FramedTargets", func(t *testing.T) { framedTargets(t, d, site) })
		t.Run("InputSaysWhereItLeftThePage", func(t *testing.T) { moveOutcomes(t, d, site) })
	}
}

func status(t *testing.T, d drivers.Driver) {
	st := d.Status(ctx(t))
	if st.Driver == "" || !st.Found {
		t.Fatalf("Status = %+v; want a driver name and a browser found", st)
	}
}

func perConversation(t *testing.T, d drivers.Driver, site Site) {
	a := Open(t, d, "dt-own-a")
	again, err := d.Open(ctx(t), "dt-own-a")
	if err != nil || again != a {
		t.Fatalf("opening a conversation again gave %v (%v); want its same tabs", again, err)
	}
	b := Open(t, d, "dt-own-b")
	Do(t, a, &drivers.Action{Kind: drivers.Navigate, URL: site.Links})
	Do(t, a, &drivers.Action{Kind: drivers.TabAction, TabOp: "new"})
	if n := len(Observe(t, b).Tabs); n != 1 {
		t.Fatalf("conversation b sees %d tabs; want only its own one", n)
	}
}

func observation(t *testing.T, d drivers.Driver, site Site) {
	tabs := Open(t, d, "dt-observe")
	Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: site.Links})
	obs := Observe(t, tabs)
	if !strings.HasPrefix(obs.URL, site.Links) || obs.TakenAt.IsZero() || obs.Tab == "" {
		t.Fatalf("observation of %s: URL %q, tab %q, taken %v", site.Links, obs.URL, obs.Tab, obs.TakenAt)
	}
	if len(obs.Refs) == 0 {
		t.Fatalf("the observation has no refs:\n%s", obs.Tree)
	}
	for ref, tg := range obs.Refs {
		if tg.Ref != ref || !strings.Contains(obs.Tree, "[ref="+ref+"]") {
			t.Errorf("ref %s (%+v) is not in the tree", ref, tg)
		}
	}
	Target(t, obs, "link", site.Link)
}

// action is a valid action of kind on the form page, with targets from obs.
func action(t *testing.T, k drivers.Kind, site Site, obs *drivers.Observation) *drivers.Action {
	a := &drivers.Action{Kind: k}
	switch k {
	case drivers.Navigate:
		a.URL = site.Form
	case drivers.Click, drivers.Hover:
		a.Target = Target(t, obs, "button", site.Button)
	case drivers.Fill:
		a.Target, a.Value = Target(t, obs, "textbox", site.Field), "drivertest"
	case drivers.SecretFill:
		a.Target, a.Value = Target(t, obs, "textbox", site.Field), "drivertest-secret"
		if u, err := url.Parse(site.Form); err == nil {
			a.Origins = []string{u.Scheme + "://" + u.Host}
		}
	case drivers.Select:
		a.Target, a.Values = Target(t, obs, "combobox", site.Choice), []string{site.Option}
	case drivers.Submit:
		a.Target = Target(t, obs, "textbox", site.Field)
	case drivers.Press:
		a.Value = "Tab"
	case drivers.Scroll:
		a.DeltaY = 100
	case drivers.TabAction:
		a.TabOp = "list"
	case drivers.WaitFor:
		a.Wait, a.Timeout = &drivers.WaitCond{Load: true}, 5*time.Second
	}
	return a
}

// everyAction runs each action of the table on its own conversation's
// fresh load of the form page: one tab loading the page for every action
// would be a page navigating itself past the watchdog's bound.
func everyAction(t *testing.T, d drivers.Driver, site Site) {
	for _, spec := range messages.Actions() {
		if spec.Run != messages.RunDo {
			continue
		}
		k := drivers.Kind(spec.Name)
		t.Run(spec.Name, func(t *testing.T) {
			tabs := Open(t, d, "dt-actions-"+strings.ReplaceAll(spec.Name, "_", "-"))
			Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: site.Form})
			a := action(t, k, site, Observe(t, tabs))
			out, err := tabs.Do(ctx(t), a)
			if code := drivers.CodeOf(err); code == drivers.CodeBadInput {
				t.Errorf("%s was refused as bad input: %v", k, err)
				return
			}
			if k == drivers.Screenshot && (err != nil || !bytes.HasPrefix(out.Image, []byte{0xFF, 0xD8})) {
				t.Errorf("screenshot gave no JPEG: %v", err)
			}
		})
	}
}

func staleTarget(t *testing.T, d drivers.Driver, site Site) {
	tabs := Open(t, d, "dt-stale")
	Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: site.Links})
	old := Target(t, Observe(t, tabs), "link", site.Link)
	Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: site.Form})
	_, err := tabs.Do(ctx(t), &drivers.Action{Kind: drivers.Click, Target: old})
	if code := drivers.CodeOf(err); code != drivers.CodeTargetGone {
		t.Fatalf("a click on an element of the page before gave %v; want %s", err, drivers.CodeTargetGone)
	}
	if got := Observe(t, tabs).URL; !strings.HasPrefix(got, site.Form) {
		t.Fatalf("the refused click moved the page to %s", got)
	}
}

func closeOne(t *testing.T, d drivers.Driver, site Site) {
	a := Open(t, d, "dt-close-a")
	b := Open(t, d, "dt-close-b")
	Do(t, b, &drivers.Action{Kind: drivers.Navigate, URL: site.Links})
	if err := a.Close(ctx(t)); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := a.Observe(ctx(t), drivers.ObserveOptions{}); err == nil {
		t.Fatal("closed tabs still observe")
	}
	if got := Observe(t, b).URL; !strings.HasPrefix(got, site.Links) {
		t.Fatalf("the other conversation's page is %s after a close", got)
	}
}

func capabilities(t *testing.T, d drivers.Driver, site Site) {
	tabs := Open(t, d, "dt-caps")
	Do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: site.Links})
	sc, ok := drivers.ScreencastOf(tabs)
	if !ok {
		t.Log("no screencast source")
		return
	}
	c, cancel := context.WithTimeout(ctx(t), 20*time.Second)
	defer cancel()
	pin, err := sc.Pin(c)
	if err != nil {
		t.Fatalf("Pin: %v", err)
	}
	defer pin.Unpin()
	frames := make(chan *drivers.CastFrame, 1)
	sink := func(f *drivers.CastFrame) {
		select {
		case frames <- f:
		default:
		}
	}
	if err := pin.Cast(c, drivers.CastOptions{MaxWidth: 320, MaxHeight: 200, Quality: 40}, sink); err != nil {
		t.Fatalf("Cast: %v", err)
	}
	select {
	case f := <-frames:
		if !bytes.HasPrefix(f.JPEG, []byte{0xFF, 0xD8}) || f.Header.PageWidth == 0 || f.Header.PageHeight == 0 {
			t.Fatalf("the screencast gave no JPEG frame with its page size (%d bytes, %dx%d)",
				len(f.JPEG), f.Header.PageWidth, f.Header.PageHeight)
		}
	case <-c.Done():
		t.Fatal("the screencast gave no frame")
	}
	if err := pin.StopCast(c); err != nil {
		t.Fatalf("StopCast: %v", err)
	}
	if _, ok := drivers.RawInputOf(pin); !ok {
		t.Log("no raw input")
	}
}

// Open opens conv's tabs, closed when the test ends.
func Open(t testing.TB, d drivers.Driver, conv string) drivers.Tabs {
	t.Helper()
	tabs, err := d.Open(ctx(t), conv)
	if err != nil {
		t.Fatalf("Open(%q): %v", conv, err)
	}
	t.Cleanup(func() { _ = tabs.Close(context.Background()) })
	return tabs
}

// Do performs a, failing the test on an error.
func Do(t testing.TB, tabs drivers.Tabs, a *drivers.Action) *drivers.Outcome {
	t.Helper()
	out, err := tabs.Do(ctx(t), a)
	if err != nil {
		t.Fatalf("Do(%s): %v", a.Kind, err)
	}
	return out
}

// Observe observes, failing the test on an error.
func Observe(t testing.TB, tabs drivers.Tabs) *drivers.Observation {
	t.Helper()
	obs, err := tabs.Observe(ctx(t), drivers.ObserveOptions{})
	if err != nil {
		t.Fatalf("Observe: %v", err)
	}
	return obs
}

// Target finds the observed element with role and name.
func Target(t testing.TB, obs *drivers.Observation, role, name string) *drivers.Target {
	t.Helper()
	for _, tg := range obs.Refs {
		if tg.Role == role && tg.Name == name {
			return obs.Of(tg)
		}
	}
	t.Fatalf("no %s %q in the observation of %s:\n%s", role, name, obs.URL, obs.Tree)
	return nil
}

func ctx(t testing.TB) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	return c
}

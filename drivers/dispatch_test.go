package drivers_test

import (
	"context"
	"errors"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

// called records which of its methods Dispatch reached.
type called struct{ got []string }

func (c *called) hit(name string) (*drivers.Outcome, error) {
	c.got = append(c.got, name)
	return &drivers.Outcome{Result: name}, nil
}

func (c *called) Click(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Click")
}
func (c *called) Fill(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Fill")
}
func (c *called) Select(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Select")
}
func (c *called) Press(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Press")
}
func (c *called) Hover(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Hover")
}
func (c *called) Scroll(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Scroll")
}
func (c *called) Submit(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Submit")
}
func (c *called) Navigate(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Navigate")
}
func (c *called) History(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("History")
}
func (c *called) Tab(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Tab")
}
func (c *called) WaitFor(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("WaitFor")
}
func (c *called) DOM(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("DOM")
}
func (c *called) Console(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Console")
}
func (c *called) Screenshot(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return c.hit("Screenshot")
}

// withApps is a driver of computer mode: it opens apps.
type withApps struct{ called }

func (w *withApps) OpenApp(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return w.hit("OpenApp")
}

var wantMethod = map[drivers.Kind]string{
	drivers.Click: "Click", drivers.Fill: "Fill", drivers.SecretFill: "Fill", drivers.Select: "Select",
	drivers.Press: "Press", drivers.Hover: "Hover", drivers.Scroll: "Scroll", drivers.Submit: "Submit",
	drivers.Navigate: "Navigate", drivers.Back: "History", drivers.Forward: "History", drivers.TabAction: "Tab",
	drivers.WaitFor: "WaitFor", drivers.DOM: "DOM", drivers.Console: "Console", drivers.Screenshot: "Screenshot",
	drivers.Open: "OpenApp",
}

// Every kind a driver performs reaches exactly one method, the one named
// for it, and its answer comes back unchanged.
func TestDispatchSendsEveryKindToExactlyOneMethod(t *testing.T) {
	if len(wantMethod) != len(drivers.Kinds) {
		t.Fatalf("the test names %d kinds, drivers.Kinds has %d", len(wantMethod), len(drivers.Kinds))
	}
	for _, k := range drivers.Kinds {
		want, ok := wantMethod[k]
		if !ok {
			t.Errorf("%s: the test names no method for it", k)
			continue
		}
		impl := &withApps{}
		out, err := drivers.Dispatch(context.Background(), impl, &drivers.Action{Kind: k})
		if err != nil {
			t.Errorf("%s: %v", k, err)
			continue
		}
		if len(impl.got) != 1 || impl.got[0] != want || out.Result != want {
			t.Errorf("%s reached %v (answer %q), want only %s", k, impl.got, out.Result, want)
		}
	}
}

// A browser mode has no apps: open is refused with no_apps and reaches
// none of its methods.
func TestDispatchRefusesOpenWhereNoAppsAre(t *testing.T) {
	impl := &called{}
	_, err := drivers.Dispatch(context.Background(), impl, &drivers.Action{Kind: drivers.Open})
	if got, want := drivers.CodeOf(err), drivers.ErrNoApps().Code; got != want {
		t.Fatalf("open in a browser mode: code %q, want %q (%v)", got, want, err)
	}
	if len(impl.got) != 0 {
		t.Errorf("open in a browser mode reached %v", impl.got)
	}
}

func TestDispatchRefusesAnUnknownKindAsBadInput(t *testing.T) {
	impl := &withApps{}
	_, err := drivers.Dispatch(context.Background(), impl, &drivers.Action{Kind: "teleport"})
	var e *drivers.Error
	if !errors.As(err, &e) || e.Code != drivers.CodeBadInput || e.Message != "Unknown action teleport." {
		t.Fatalf("unknown kind: %v, want bad_input %q", err, "Unknown action teleport.")
	}
	if len(impl.got) != 0 {
		t.Errorf("an unknown kind reached %v", impl.got)
	}
}

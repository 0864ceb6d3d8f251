package sim_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestNavigateFailures(t *testing.T) {
	_, tabs := open(t, sim.Config{Pages: 5})
	for name, url := range map[string]string{
		"other host":   "https://example.com/",
		"no such page": "https://sim.localhost/p/5",
		"unknown path": "https://sim.localhost/admin",
		"relative":     "/p/1",
		"odd scheme":   "ftp://sim.localhost/p/1",
	} {
		_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Navigate, URL: url})
		var de *drivers.Error
		if drivers.CodeOf(err) != drivers.CodeNavFailed || !asError(err, &de) || !strings.HasSuffix(de.Message, ".") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestBadInputDispatchesNothing(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/form/2")
	obs := observe(t, tabs)
	country := target(t, obs, "combobox", "Country")
	heading := target(t, obs, "heading", "Order form 2")
	for name, a := range map[string]*drivers.Action{
		"not an option":   {Kind: drivers.Select, Target: country, Values: []string{"Atlantis"}},
		"two choices":     {Kind: drivers.Select, Target: country, Values: []string{"France", "Italy"}},
		"select heading":  {Kind: drivers.Select, Target: heading, Values: []string{"France"}},
		"fill heading":    {Kind: drivers.Fill, Target: heading, Value: "x"},
		"submit heading":  {Kind: drivers.Submit, Target: heading},
		"click no target": {Kind: drivers.Click},
		"press no key":    {Kind: drivers.Press},
		"unknown kind":    {Kind: "dance"},
		"wait for two":    {Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "a", URL: "b"}},
	} {
		_, err := tabs.Do(context.Background(), a)
		if drivers.CodeOf(err) != drivers.CodeBadInput {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := tabs.Inputs().Total(); n != 0 {
		t.Fatalf("%d inputs after refused actions", n)
	}
}

func TestSelectByValue(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/form/3")
	do(t, tabs, &drivers.Action{Kind: drivers.Select, Target: target(t, observe(t, tabs), "combobox", "Country"), Values: []string{"ge"}})
	if tree := observe(t, tabs).Tree; !strings.Contains(tree, `option "Germany" [selected]`) {
		t.Fatalf("tree:\n%s", tree)
	}
}

func TestInputsWithoutNavigation(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/3")
	obs := observe(t, tabs)
	for _, a := range []*drivers.Action{
		{Kind: drivers.Hover, Target: target(t, obs, "link", "Home")},
		{Kind: drivers.Scroll, DeltaY: 600},
		{Kind: drivers.Press, Value: "Tab"},
		{Kind: drivers.Click, Target: target(t, obs, "heading", "Page 3")},
	} {
		if out := do(t, tabs, a); out.Result != drivers.SamePage || out.Changed {
			t.Fatalf("%s = %+v", a.Kind, out)
		}
	}
	if got := tabs.Inputs(); got != (sim.Counts{Hover: 1, Scroll: 1, Press: 1, Click: 1}) {
		t.Fatalf("inputs = %+v", got)
	}
}

func TestPressEnterSubmits(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/2")
	email := target(t, observe(t, tabs), "textbox", "Email")
	out := do(t, tabs, &drivers.Action{Kind: drivers.Press, Target: email, Value: "Enter"})
	if out.URL != "https://sim.localhost/done" || tabs.Inputs().Submissions != 1 {
		t.Fatalf("enter = %+v, inputs %+v", out, tabs.Inputs())
	}
}

func TestBackAndForward(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/1")
	navigate(t, tabs, "https://sim.localhost/p/2")
	steps := []struct {
		kind drivers.Kind
		url  string
	}{
		{drivers.Back, "https://sim.localhost/p/1"},
		{drivers.Back, sim.BlankURL},
		{drivers.Back, sim.BlankURL},
		{drivers.Forward, "https://sim.localhost/p/1"},
		{drivers.Forward, "https://sim.localhost/p/2"},
		{drivers.Forward, "https://sim.localhost/p/2"},
	}
	for i, s := range steps {
		if out := do(t, tabs, &drivers.Action{Kind: s.kind}); out.URL != s.url {
			t.Fatalf("step %d %s: %s, want %s", i, s.kind, out.URL, s.url)
		}
	}
}

func TestWaitFor(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/7")
	for name, w := range map[string]drivers.WaitCond{
		"text":     {Text: "Page 7"},
		"url":      {URL: "/p/7"},
		"selector": {Selector: "table"},
		"tag":      {Selector: "a"},
		"load":     {Load: true},
	} {
		if out := do(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &w}); out.Result != drivers.Done {
			t.Errorf("%s: %+v", name, out)
		}
	}
	_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Text: "Page 8"}, Timeout: time.Millisecond})
	wantCode(t, err, drivers.CodeTimeout)
}

func TestWaitForPendingLoad(t *testing.T) {
	_, tabs := open(t, sim.Config{LoadLatency: 20 * time.Millisecond})
	out := do(t, tabs, &drivers.Action{Kind: drivers.Navigate, URL: "https://sim.localhost/p/1", Timeout: time.Millisecond})
	if out.Result != drivers.LoadPending {
		t.Fatalf("navigate = %+v", out)
	}
	do(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}})
	if out := navigate(t, tabs, "https://sim.localhost/p/2"); out.Result != drivers.Loaded {
		t.Fatalf("navigate within the timeout = %+v", out)
	}
}

func TestDOMAndConsole(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/3") // logs an error on load
	out := do(t, tabs, &drivers.Action{Kind: drivers.DOM})
	if !strings.Contains(out.Text, "Page 3\n") || len(out.Text) > 8000 {
		t.Fatalf("dom = %q", out.Text)
	}
	if out := do(t, tabs, &drivers.Action{Kind: drivers.DOM, MaxChars: 10}); len(out.Text) > 10 {
		t.Fatalf("capped dom = %q", out.Text)
	}
	if out := do(t, tabs, &drivers.Action{Kind: drivers.Console}); !strings.Contains(out.Text, "https://sim.localhost/p/3") {
		t.Fatalf("console = %q", out.Text)
	}
}

package sim_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/sim"
)

func TestClickLinkNavigates(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	if out := navigate(t, tabs, "https://sim.localhost/p/7"); out.Result != drivers.Loaded || !out.Changed {
		t.Fatalf("navigate = %+v", out)
	}
	obs := observe(t, tabs)
	if obs.URL != "https://sim.localhost/p/7" || obs.Tab != "t1" || !strings.Contains(obs.Tree, `heading "Page 7" [level=1]`) {
		t.Fatalf("observation of %s on %s:\n%s", obs.URL, obs.Tab, obs.Tree)
	}
	link := target(t, obs, "link", "Deals")
	out := do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: link})
	if out.Result != drivers.Navigated || !out.Changed || out.URL != "https://sim.localhost/p/2" {
		t.Fatalf("click = %+v", out)
	}
	if got := observe(t, tabs).URL; got != out.URL {
		t.Fatalf("URL after click = %s, want %s", got, out.URL)
	}
	if n := tabs.Inputs(); n.Click != 1 || n.Total() != 1 {
		t.Fatalf("inputs = %+v", n)
	}
}

func TestFillAndSubmitCountsOnce(t *testing.T) {
	var mu sync.Mutex
	var hooked []drivers.Kind
	d, tabs := open(t, sim.Config{OnInput: func(conv string, k drivers.Kind) {
		mu.Lock()
		defer mu.Unlock()
		hooked = append(hooked, k)
	}})
	navigate(t, tabs, "https://sim.localhost/form/3")
	obs := observe(t, tabs)
	do(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: target(t, obs, "textbox", "Name"), Value: "Ada"})
	do(t, tabs, &drivers.Action{Kind: drivers.Select, Target: target(t, obs, "combobox", "Country"), Values: []string{"Italy"}})
	do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "checkbox", "I accept the terms")})

	tree := observe(t, tabs).Tree
	for _, want := range []string{`textbox "Name" [ref=e17]: Ada`, `option "Italy" [selected]`, `checkbox "I accept the terms" [checked]`} {
		if !strings.Contains(tree, want) {
			t.Errorf("tree lacks %q:\n%s", want, tree)
		}
	}
	out := do(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Send")})
	if out.Result != drivers.Navigated || out.URL != "https://sim.localhost/done" || !out.Changed {
		t.Fatalf("send = %+v", out)
	}
	want := sim.Counts{Click: 2, Fill: 1, Select: 1, Submissions: 1}
	if got := tabs.Inputs(); got != want {
		t.Fatalf("inputs = %+v, want %+v", got, want)
	}
	if got := d.Stats(); got != want {
		t.Fatalf("stats = %+v, want %+v", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hooked) != 4 {
		t.Fatalf("OnInput saw %v", hooked)
	}
}

func TestSubmitAction(t *testing.T) {
	_, tabs := open(t, sim.Config{})
	navigate(t, tabs, "https://sim.localhost/p/4")
	email := target(t, observe(t, tabs), "textbox", "Email")
	out := do(t, tabs, &drivers.Action{Kind: drivers.Submit, Target: email})
	if out.URL != "https://sim.localhost/done" {
		t.Fatalf("submit = %+v", out)
	}
	if got := tabs.Inputs(); got.Submit != 1 || got.Submissions != 1 || got.Total() != 1 {
		t.Fatalf("inputs = %+v", got)
	}
}

func TestStaleTargetDispatchesNothing(t *testing.T) {
	hooked := 0
	_, tabs := open(t, sim.Config{OnInput: func(string, drivers.Kind) { hooked++ }})
	navigate(t, tabs, "https://sim.localhost/p/7")
	old := target(t, observe(t, tabs), "link", "Deals")
	navigate(t, tabs, "https://sim.localhost/p/8")

	otherTab := *old
	otherTab.Tab = "t2"
	missing := *old
	missing.Ref = "e999"
	for name, tg := range map[string]*drivers.Target{"other page": old, "other tab": &otherTab, "no such ref": &missing} {
		_, err := tabs.Do(context.Background(), &drivers.Action{Kind: drivers.Click, Target: tg})
		wantCode(t, err, drivers.CodeTargetGone)
		if n := tabs.Inputs().Total(); n != 0 || hooked != 0 {
			t.Fatalf("%s: %d inputs, %d hooked after a stale target", name, n, hooked)
		}
	}
}

func TestConversationsAreIsolated(t *testing.T) {
	d, a := open(t, sim.Config{})
	tb, err := d.Open(context.Background(), "conv-b")
	if err != nil {
		t.Fatal(err)
	}
	b := tb.(*sim.Tabs)
	navigate(t, a, "https://sim.localhost/p/1")
	do(t, a, &drivers.Action{Kind: drivers.TabAction, TabOp: "new"})
	navigate(t, b, "https://sim.localhost/form/1")
	do(t, b, &drivers.Action{Kind: drivers.Fill, Target: target(t, observe(t, b), "textbox", "Name"), Value: "Bo"})

	if obs := observe(t, b); len(obs.Tabs) != 1 || obs.URL != "https://sim.localhost/form/1" {
		t.Fatalf("b sees %+v at %s", obs.Tabs, obs.URL)
	}
	if a.Inputs().Total() != 0 || b.Inputs().Fill != 1 {
		t.Fatalf("inputs a=%+v b=%+v", a.Inputs(), b.Inputs())
	}
	if err := a.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if obs := observe(t, b); obs.URL != "https://sim.localhost/form/1" {
		t.Fatalf("b after a closed: %s", obs.URL)
	}
	again, _ := d.Open(context.Background(), "conv-a")
	if obs := observe(t, again); obs.URL != sim.BlankURL || len(obs.Tabs) != 1 || obs.Tree != "" {
		t.Fatalf("reopened a: %+v", obs)
	}
	_, err = a.Observe(context.Background(), drivers.ObserveOptions{})
	wantCode(t, err, drivers.CodeNoBrowser)
}

// Two conversations on the same page read the same tree and refs, and
// what one typed into it shows only in its own reads, though the page's
// default read is made once and shared.
func TestASharedReadOfAPageKeepsEachConversationsOwnValues(t *testing.T) {
	d, a := open(t, sim.Config{})
	tb, err := d.Open(context.Background(), "conv-b")
	if err != nil {
		t.Fatal(err)
	}
	b := tb.(*sim.Tabs)
	const url = "https://sim.localhost/form/2"
	navigate(t, a, url)
	navigate(t, b, url)
	first, second := observe(t, a), observe(t, b)
	if first.Tree != second.Tree || len(first.Refs) == 0 || len(first.Refs) != len(second.Refs) {
		t.Fatalf("the two reads of %s differ: %d and %d refs", url, len(first.Refs), len(second.Refs))
	}
	for ref, el := range first.Refs {
		if second.Refs[ref] != el {
			t.Fatalf("%s: %+v and %+v", ref, el, second.Refs[ref])
		}
	}
	do(t, b, &drivers.Action{Kind: drivers.Fill, Target: target(t, second, "textbox", "Name"), Value: "Bo Typed"})
	if obs := observe(t, b); !strings.Contains(obs.Tree, "Bo Typed") || len(obs.Refs) != len(first.Refs) {
		t.Fatalf("b's read after it typed lacks its value (%d refs):\n%s", len(obs.Refs), obs.Tree)
	}
	if obs := observe(t, a); strings.Contains(obs.Tree, "Bo Typed") || obs.Tree != first.Tree {
		t.Fatalf("a's read shows what b typed:\n%s", obs.Tree)
	}
}

package playwright_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
)

func TestOtherInputs(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Inputs", `<form action="/search"><label>Colour <select name="c"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select></label>
<label>Words <input name="q"></label></form>
<p id="h" onmouseover="this.textContent = 'hovered'">not yet</p>`)
	var query string
	s.mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		query = r.URL.RawQuery
		w.Write([]byte("<title>Results</title>results"))
	})
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	sel := target(t, obs, "combobox", "Colour")
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Select, Target: sel, Values: []string{"Green"}})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Select, Target: sel, Values: []string{"b"}})
	found := observe(t, tabs, drivers.ObserveOptions{Find: &drivers.Query{Text: "not yet"}})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Hover, Target: target(t, found, "paragraph", "")})
	words := target(t, obs, "textbox", "Words")
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: words, Value: "sea"})
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Press, Value: "Control+a"})
	wantCode(t, err, drivers.CodeBadInput)
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Press, Target: words, Value: "s"})
	if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM}); !strings.Contains(out.Text, "hovered") {
		t.Fatalf("hover did not reach the page: %q", out.Text)
	}
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Press, Value: "Enter"})
	if out.Result != drivers.Navigated || out.Title != "Results" || query != "c=b&q=seas" {
		t.Fatalf("enter: %+v, query %q", out, query)
	}
	if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Back}); out.URL != s.URL+"/p" {
		t.Fatalf("back: %+v", out)
	}
	if out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Forward}); out.Title != "Results" {
		t.Fatalf("forward: %+v", out)
	}
	_, err = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Forward})
	wantCode(t, err, drivers.CodeNavFailed)
}

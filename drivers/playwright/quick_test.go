package playwright_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// A click or fill checks its element in the call that acts: an element
// hidden, removed or given another autocomplete since the observation is
// refused with the same answer as before the check moved into that call,
// and nothing reaches the page.
func TestInputOnElementChangedSinceObserve(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Changed", typedReporter+`<button id="hide" onclick="fetch('/hidden')">Hide me</button>
<button id="gone" onclick="fetch('/gone')">Remove me</button>
<label>Card <input id="card"></label>
<button onclick="document.getElementById('hide').style.display = 'none'; document.getElementById('gone').remove(); document.getElementById('card').autocomplete = 'cc-number'">Change</button>
<script>report(document.getElementById('card'), '/typed')</script>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	hide, gone, card := target(t, obs, "button", "Hide me"), target(t, obs, "button", "Remove me"), target(t, obs, "textbox", "Card")
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Change")})
	for want, tg := range map[string]*drivers.Target{"is hidden now": hide, "is no longer on the page": gone} {
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Click, Target: tg})
		wantCode(t, err, drivers.CodeTargetGone)
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("click %s: %v, want it to say %q", tg.Name, err, want)
		}
	}
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Fill, Target: card, Value: "4111 1111 1111 1111"})
	wantCode(t, err, messages.CodeCredential)
	if n := s.hit("GET /hidden") + s.hit("GET /gone") + s.hit("GET /typed"); n != 0 {
		t.Fatalf("an input on a changed element reached the page: %s", s.allHits())
	}
}

// Names with quotes and selector syntax in them reach their element, and
// a fill in the page reports the page's title as it is after the input.
func TestInputOnElementWithQuotedName(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Quotes", `<button onclick="fetch('/clicked')">Don't >> "stop"</button>
<label>It's a note <input oninput="document.title = 'Typed ' + this.value"></label>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", `Don't >> "stop"`)})
	if !s.awaitHit("GET /clicked") {
		t.Fatalf("the click did not reach the button: %s", s.allHits())
	}
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: target(t, obs, "textbox", "It's a note"), Value: "x"})
	if out.Title != "Typed x" || out.Result != drivers.Done {
		t.Fatalf("fill: %+v, want title %q", out, "Typed x")
	}
}

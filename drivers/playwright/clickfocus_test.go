package playwright_test

import (
	"net/url"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// A key with no target, pressed right after a click, goes into the field
// that click focused, also when the click moved the focus between the
// page and a cross-site frame (another process), in either direction.
func TestUntargetedKeyAfterClickGoesWhereTheClickPutTheFocus(t *testing.T) {
	s, tabs := noteAndFrame(t, typedReporter+`<label>Frame note <input id="fnote"></label>
<script>report(document.getElementById('fnote'), '/fnote')</script>`)
	obs := observe(t, tabs, drivers.ObserveOptions{})
	note, fnote := target(t, obs, "textbox", "Note"), target(t, obs, "textbox", "Frame note")
	const rounds = 4
	for range rounds {
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: fnote})
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Press, Value: "f"})
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: note})
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Press, Value: "n"})
	}
	for deadline := time.Now().Add(15 * time.Second); (s.hit("GET /note") < rounds || s.hit("GET /fnote") < rounds) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond) // each key's report is a fetch of its own
	}
	time.Sleep(200 * time.Millisecond) // a key that went astray reports late too
	if s.hit("GET /note") != rounds || s.hit("GET /fnote") != rounds {
		t.Fatalf("want %d keys in each field, each where its click put the focus: %s", rounds, s.allHits())
	}
}

// A click in a cross-site frame on a button that keeps the focus from
// moving (its mousedown is cancelled) leaves the focus in the page's
// field: the key pressed right after it waits for the focus to come to
// the frame (an owner's picture taken in between changes nothing), and
// when it does not come, nothing is pressed and the agent is told. The key
// pressed next goes where the focus is, without waiting.
func TestUntargetedKeyWhoseClickKeptTheFocusAwayIsRefusedOnce(t *testing.T) {
	s, tabs := noteAndFrame(t, `<button onmousedown="event.preventDefault()" onclick="fetch('/pressed')">Keep</button>`)
	obs := observe(t, tabs, drivers.ObserveOptions{})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "textbox", "Note")})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "button", "Keep")})
	if !s.awaitHit("GET /pressed") {
		t.Fatalf("the click did not reach the frame's button: %s", s.allHits())
	}
	// The owner's picture, taken in between, sends the page no input: the
	// key still waits for the click's focus.
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Screenshot, Owner: true})
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Press, Value: "x"})
	wantCode(t, err, drivers.CodeNotAllowed)
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Press, Value: "y"})
	if !s.awaitHit("GET /note") {
		t.Fatalf("the second key did not reach the field holding the focus: %s", s.allHits())
	}
	time.Sleep(200 * time.Millisecond) // a refused key that went anyway reports late too
	if n := s.hit("GET /note"); n != 1 {
		t.Fatalf("the note field took %d keys, want only the second: %s", n, s.allHits())
	}
}

// A Tab out of a cross-site frame's last field moves the focus in the
// browser's own time, and the move can land after the next click, undoing
// the focus that click gave another frame's field. A key pressed then
// would go nowhere: every key pressed right after such a click either
// reaches the field clicked or is refused, and none is lost unsaid.
func TestUntargetedKeyAfterTabAndClickAcrossFramesLandsOrIsRefused(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	u, _ := url.Parse(s.URL)
	cross := "http://localhost:" + u.Port()
	s.page("/outer", "Outer", `<p>outer</p><iframe src="/same" width="400" height="120"></iframe>
<iframe src="`+cross+`/cross" width="400" height="120"></iframe>`)
	for _, name := range []string{"same", "cross"} {
		s.page("/"+name, "Inner", typedReporter+`<label>Field `+name+` <input id="f"></label>
<script>report(document.getElementById('f'), '/typed-`+name+`')</script>`)
	}
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/outer")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	field := map[string]*drivers.Target{"same": target(t, obs, "textbox", "Field same"), "cross": target(t, obs, "textbox", "Field cross")}
	refused := 0
	for i := range 20 {
		from, to := "cross", "same"
		if i%2 == 1 {
			from, to = to, from
		}
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: field[from]})
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Press, Value: "Tab"})
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: field[to]})
		before := s.hit("GET /typed-" + to)
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Press, Value: "x"})
		if err != nil {
			wantCode(t, err, drivers.CodeNotAllowed)
			refused++
			continue
		}
		for deadline := time.Now().Add(5 * time.Second); s.hit("GET /typed-"+to) == before && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond) // each key's report is a fetch of its own
		}
		if s.hit("GET /typed-"+to) == before {
			t.Fatalf("round %d: the key was pressed without error after a click into the %s frame's field and never reached it: %s", i, to, s.allHits())
		}
	}
	t.Logf("%d of 20 keys refused because the click's focus was undone", refused)
}

// noteAndFrame serves at /outer a page with a Note field, whose keys it
// reports as /note, and a frame of another site (the same server named
// localhost: another process) showing /inner, which is innerBody; it
// opens a conversation's tabs there.
func noteAndFrame(t *testing.T, innerBody string) (*site, drivers.Tabs) {
	d := sharedDriver(t)
	s := newSite(t)
	u, _ := url.Parse(s.URL)
	s.page("/outer", "Outer", typedReporter+`<label>Note <input id="note"></label>
<iframe src="http://localhost:`+u.Port()+`/inner" width="400" height="120"></iframe>
<script>report(document.getElementById('note'), '/note')</script>`)
	s.page("/inner", "Inner", innerBody)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/outer")
	return s, tabs
}

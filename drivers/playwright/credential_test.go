package playwright_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// typedReporter is a page script that reports to the server every time
// text goes into the field it is given.
const typedReporter = `<script>function report(el, path) { el.addEventListener('input', () => fetch(path + '?n=' + el.value.length)); }</script>`

// A press with no target goes to whatever has focus: a password field in a
// frame, same-site or cross-site, is refused like one in the page itself,
// and nothing reaches the field.
func TestUntargetedPressIntoFramedPasswordIsRefused(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	u, _ := url.Parse(s.URL)
	cross := "http://localhost:" + u.Port()
	s.page("/outer", "Outer", `<p>outer</p><iframe src="/inner" width="400" height="120"></iframe>
<iframe src="`+cross+`/inner?cross" width="400" height="120"></iframe>`)
	s.page("/inner", "Inner", typedReporter+`<label>Frame password <input type="password" id="pw"></label>
<script>report(document.getElementById('pw'), '/typed' + location.search.replace('?', '-'))</script>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/outer")
	clicked := map[int]bool{} // the frames whose field was clicked
	for range 2 {
		obs := observe(t, tabs, drivers.ObserveOptions{})
		fields := targets(obs, "textbox", "Frame password")
		if len(fields) != 2 || fields[0].Frame == fields[1].Frame {
			t.Fatalf("want both framed password fields, each in its frame:\n%s", obs.Tree)
		}
		// The observation lists the frames in the order they answered:
		// pick the field by its frame, so that each frame's is clicked.
		field := fields[0]
		if clicked[field.Frame] {
			field = fields[1]
		}
		clicked[field.Frame] = true
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: field})
		// The click's focus reaches a cross-site frame (another process)
		// in its own time; the press waits until every frame agrees where
		// it is, so it is refused even right after the click.
		_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Press, Value: "x"})
		wantCode(t, err, messages.CodeCredential)
		// Keys that type nothing still go. Not Tab: from the cross-site
		// frame's field (the last on the page) it moves the focus on out of
		// that frame, and the move can reach the top document after the
		// next click, undoing the click's focus; the press then waits for
		// the focus in vain and is refused, which is not what this test is
		// about.
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Press, Value: "Escape"})
	}
	if n := s.hit("GET /typed") + s.hit("GET /typed-cross"); n != 0 {
		t.Fatalf("a key reached a framed password field: %s", s.allHits())
	}
}

// A press aimed at a field of the page, right after a click put the focus
// in a cross-site frame's password field (another process), types into
// the field aimed at and not where the focus was.
func TestTargetedPressAfterFocusInCrossSiteFrameTypesIntoTheTarget(t *testing.T) {
	s, tabs := noteAndFrame(t, typedReporter+`<label>Frame password <input type="password" id="pw"></label>
<script>report(document.getElementById('pw'), '/typed')</script>`)
	obs := observe(t, tabs, drivers.ObserveOptions{})
	note := target(t, obs, "textbox", "Note")
	for range 3 {
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Click, Target: target(t, obs, "textbox", "Frame password")})
		mustDo(t, tabs, &drivers.Action{Kind: drivers.Press, Target: note, Value: "k"})
	}
	for deadline := time.Now().Add(15 * time.Second); s.hit("GET /note") < 3 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond) // each key's report is a fetch of its own
	}
	if n := s.hit("GET /note"); n != 3 {
		t.Errorf("the note field reported %d keys, want 3: %s", n, s.allHits())
	}
	if s.hit("GET /typed") != 0 {
		t.Fatalf("a key aimed at the note reached the framed password field: %s", s.allHits())
	}
}

// A password field inside a closed shadow root cannot be read from the
// page's DOM: a press into it, with or without a target on its host, is
// refused rather than typed blind.
func TestPressIntoClosedShadowRootIsRefused(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/shadow", "Shadow", typedReporter+`<p>Sign in</p><login-box role="textbox" aria-label="Login box" tabindex="0" style="display:block;width:300px;height:40px"></login-box>
<script>
const root = document.querySelector('login-box').attachShadow({mode: 'closed', delegatesFocus: true});
root.innerHTML = '<input type="password" aria-label="Hidden password">';
const pw = root.querySelector('input');
report(pw, '/typed');
pw.focus();
</script>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/shadow")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Press, Value: "x"})
	wantCode(t, err, drivers.CodeNotAllowed) // blind: buddi cannot see the field
	host := target(t, obs, "textbox", "Login box")
	_, err = tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Press, Target: host, Value: "y"})
	wantCode(t, err, drivers.CodeNotAllowed) // blind: buddi cannot see the field
	if s.hit("GET /typed") != 0 {
		t.Fatalf("a key reached the password field in the closed shadow root: %s", s.allHits())
	}
}

// A field that turns itself into a password field when it gets focus is
// checked again inside the same page call that puts the text in: fill is
// refused and no text reaches it.
func TestFillIntoFieldThatBecomesPasswordOnFocusIsRefused(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/swap", "Swap", typedReporter+`<label>Login code <input id="f" onfocus="this.type='password'"></label>
<label>Note <input id="note"></label>
<script>report(document.getElementById('f'), '/typed'); report(document.getElementById('note'), '/note')</script>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/swap")
	obs := observe(t, tabs, drivers.ObserveOptions{})
	_, err := tabs.Do(testCtx(t), &drivers.Action{Kind: drivers.Fill, Target: target(t, obs, "textbox", "Login code"), Value: "hunter2"})
	wantCode(t, err, messages.CodeCredential)
	if s.hit("GET /typed") != 0 {
		t.Fatalf("text reached the field that became a password field: %s", s.allHits())
	}
	obs = observe(t, tabs, drivers.ObserveOptions{})
	mustDo(t, tabs, &drivers.Action{Kind: drivers.Fill, Target: target(t, obs, "textbox", "Note"), Value: "fine"})
	if !s.awaitHit("GET /note") {
		t.Fatalf("an ordinary fill did not fire input events: %s", s.allHits())
	}
	if obs := observe(t, tabs, drivers.ObserveOptions{}); !strings.Contains(obs.Tree, "fine") {
		t.Fatalf("the ordinary field does not show its value:\n%s", obs.Tree)
	}
}

// targets lists every observed element with role and name.
func targets(obs *drivers.Observation, role, name string) []*drivers.Target {
	var out []*drivers.Target
	for _, tg := range obs.Refs {
		if tg.Role == role && tg.Name == name {
			out = append(out, obs.Of(tg))
		}
	}
	return out
}

package extension

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/drivers/walker"
)

// resolved is a target checked against the live page, ready for input.
type resolved struct {
	ts   *Tabs
	at   at // the tab, and the frame the element was read in
	ref  string
	info elemInfo
	url  string // the page's URL when it was checked
	doc  string // for a checked target, its document's URL when observed
	// checked is set when info is the observation's, not a read made
	// now: the call that acts checks the element in the page (quick).
	checked bool
}

// onRef is an expression running body with el bound to ref's element; it
// answers {gone: true} when the element is no longer on the page.
func onRef(ref, body string) string {
	q, _ := json.Marshal("ref " + ref)
	return "(() => { const el = __buddi.queryAll(document, " + string(q) + ")[0]; if (!el) return {gone: true}; " + body + " })()"
}

// resolve finds the target's element on its tab, in the frame it was read
// in, and checks, before any input, that it is the element the
// observation fingerprinted, on the very page (and in the very frame
// document) it was read from: a redirect in between, or a frame that
// closed or went elsewhere, makes it stale. It must still be rendered. A
// target named by what it is needs the tree unchanged too.
func (ts *Tabs) resolve(ctx context.Context, tg *drivers.Target) (*resolved, error) {
	if tg == nil || tg.Ref == "" {
		return nil, badInput("This action needs a target: a ref from the latest observation.")
	}
	tab := ts.current()
	if tg.Tab != "" {
		n, ok := parseTab(tg.Tab)
		if !ok || !ts.knows(n) {
			return nil, staleRef(tg.Ref, "is in a tab this conversation no longer has")
		}
		tab = n
	}
	in := at{tab: tab, frame: ts.frameOfRef(tab, tg.Ref)}
	info, page, err := ts.fingerprinted(ctx, in, tg)
	if err != nil {
		return nil, err
	}
	if !info.Visible {
		return nil, staleRef(tg.Ref, "is hidden now")
	}
	if tg.Tree != "" {
		if err := ts.sameTree(ctx, tab, tg.Ref, tg.Tree); err != nil {
			return nil, err
		}
	}
	return &resolved{ts: ts, at: in, ref: tg.Ref, info: info, url: page}, nil
}

// fingerprinted reads the target's element in the document in and checks
// it is the one the observation fingerprinted, on the page the tab was
// on then. It returns the element and the page's address.
func (ts *Tabs) fingerprinted(ctx context.Context, in at, tg *drivers.Target) (elemInfo, string, error) {
	q, _ := json.Marshal("fp " + tg.Ref)
	var now struct {
		Infos string `json:"infos"`
		URL   string `json:"url"`
	}
	pageURL, err := ts.evalIn(ctx, in, "({infos: __buddi.queryAll(document, "+string(q)+")[0].textContent, url: document.URL})", false, &now)
	switch {
	case err != nil && in.frame != "" && drivers.CodeOf(err) == drivers.CodeTargetGone:
		return elemInfo{}, "", staleRef(tg.Ref, "was in a frame that is gone (it closed or went elsewhere)")
	case err != nil:
		return elemInfo{}, "", err
	}
	page, frameURL := now.URL, ""
	if in.frame != "" {
		page, frameURL = pageURL, now.URL
	}
	if then := ts.seenOf(in.tab).observed; then != "" && page != then {
		return elemInfo{}, "", staleRef(tg.Ref, "belongs to a page the tab has left (it is now at "+page+")")
	}
	var infos map[string]elemInfo
	if err := json.Unmarshal([]byte(now.Infos), &infos); err != nil {
		return elemInfo{}, "", notAnswering(err)
	}
	info, ok := infos[tg.Ref]
	switch {
	case !ok:
		return info, "", staleRef(tg.Ref, "is no longer on the page")
	case info.Fingerprint(page, frameURL) != tg.Fingerprint:
		return info, "", staleRef(tg.Ref, "changed since the observation (what it is, its name, or where it points)")
	}
	return info, page, nil
}

// sameTree reads the page again as it was last read, frames and all, and
// refuses when the tree differs.
func (ts *Tabs) sameTree(ctx context.Context, tab int, ref, tree string) error {
	p := ts.seenOf(tab)
	r, err := ts.readWithFrames(ctx, at{tab, p.seenIn}, p.seen, newFraming(p.frames.nos))
	if err != nil {
		return err
	}
	if r.Tree != tree {
		return staleRef(ref, "was named by what it is, and the page's tree changed since the observation (a target by role, label, placeholder or text needs it unchanged); use a ref from a new observation")
	}
	return nil
}

func (ts *Tabs) knows(tab int) bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	_, ok := ts.pages[tab]
	return ok
}

// point scrolls the element into view and finds its middle, checking that
// the element itself (or what it contains) is what a pointer there hits.
const pointBody = `el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) { const inner = hit.shadowRoot.elementFromPoint(x, y); if (!inner || inner === hit) break; hit = inner; }
  const on = !!hit && (hit === el || el.contains(hit) || (hit.localName === 'label' && hit.control === el));
  return {x, y, on, nav: ` + navMark + `};`

// navMark is an expression for the navigations the document has started
// (walker.NavMark), read in the engine's world of it.
const navMark = "(" + walker.NavMark + ")()"

// afterInput reads, in the top document, its navigation mark and title.
var afterInput = "({nav: " + navMark + ", title: String(document.title).slice(0, " + strconv.Itoa(drivers.MaxTitle) + ")})"

type point struct {
	Gone    bool    `json:"gone"`
	Recheck bool    `json:"recheck"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	On      bool    `json:"on"`
	Nav     string  `json:"nav"` // the document's navMark before the input
	via     at      // where a pointer event at the point goes (inPage)
}

// point finds where to put the pointer on the element: in the page's
// viewport, through the frames it is in. A checked target is checked in
// the same call, before anything is scrolled.
func (r *resolved) point(ctx context.Context) (*point, error) {
	expr := onRef(r.ref, pointBody)
	if r.checked {
		var err error
		if expr, err = r.checkedExpr(pointBody); err != nil {
			return nil, err
		}
	}
	var p point
	if err := r.evalChecked(ctx, expr, false, &p); err != nil {
		return nil, err
	}
	switch {
	case p.Recheck:
		return nil, errRecheck
	case p.Gone:
		return nil, staleRef(r.ref, "is no longer on the page")
	}
	if p.On {
		via, err := r.ts.inPage(ctx, r.at, &p)
		if err != nil {
			return nil, err
		}
		p.via = via
	}
	if !p.On {
		return nil, fail(drivers.CodeTargetMiss, nil, "The element "+r.ref+" is covered by another element where it is shown, so nothing was clicked; observe to see what covers it.")
	}
	return &p, nil
}

// mouse sends the debugger's mouse events at p, in order. It returns the
// tabs of the group as they were just before the first (popup).
func (r *resolved) mouse(ctx context.Context, p *point, kinds ...string) ([]int, error) {
	var group []int
	for i, k := range kinds {
		ev := cdp.MouseEvent{Type: k, X: p.X, Y: p.Y}
		if k != cdp.MouseMoved {
			ev.Button, ev.ClickCount = "left", 1
		}
		var err error
		if i == 0 {
			group, err = r.ts.inputFirst(ctx, p.via, ev)
		} else {
			err = r.ts.input(ctx, p.via, ev)
		}
		if err != nil {
			if i > 0 && kinds[i-1] == "mousePressed" {
				return nil, fail(drivers.CodePartial, err, "The click on "+r.ref+" may have half happened: observe before doing anything else.")
			}
			return nil, err
		}
	}
	return group, nil
}

func (r *resolved) click(ctx context.Context) (*drivers.Outcome, error) {
	p, err := r.point(ctx)
	if err != nil {
		return nil, err
	}
	// No move first: in a background tab Chrome holds a mouse move until
	// its next frame, which a hidden tab paints about once a second. A
	// press at the point is a click there all the same.
	group, err := r.mouse(ctx, p, "mousePressed", "mouseReleased")
	if err != nil {
		return nil, err
	}
	if r.at.frame == "" && p.via.frame == "" {
		if out, err := r.ts.stayed(ctx, r.at.tab, p.Nav, r.url, group); out != nil || err != nil {
			return out, err
		}
	}
	return r.ts.settled(ctx, r.at.tab, r.url, group)
}

// stayed answers input into the top document of tab, whose navMark was
// mark before it, whose page was at url and whose group had the tabs
// group, when it started no navigation
// (same_page): the debugger's mouse and key events return once the page
// has handled them, and a link, a form's button, a form's field submitted
// with Enter, or a handler that moves the page or submits a form leaves
// its mark as it is handled, so a mark that did not move means the input
// stayed on the page. It answers at once with the title as the input left
// it, where settled waits navStart for a load. Nil (go the long way) on a
// page without the Navigation API, or whose document or world changed; a
// navigation a page's timer starts later is the next observation's, as
// for a click in the Playwright driver. A tab the input opened is its
// answer (popup).
func (ts *Tabs) stayed(ctx context.Context, tab int, mark, url string, group []int) (*drivers.Outcome, error) {
	if mark == "" {
		return nil, nil
	}
	st, err := ts.afterRead(ctx, tab)
	if err != nil {
		return nil, nil
	}
	if id := newPopup(group, st.Opened); id != 0 {
		return ts.popup(ctx, tab, id)
	}
	if st.Nav != mark || st.URL != url {
		return nil, nil
	}
	return &drivers.Outcome{Result: drivers.SamePage, URL: st.URL, Title: st.Title}, nil
}

// markOf is the navMark of tab's top document and the address of its page
// ("" and "" when it cannot be read: the input then goes the long way).
func (ts *Tabs) markOf(ctx context.Context, tab int) (mark, url string) {
	var ans struct {
		Nav string `json:"nav"`
	}
	u, err := ts.evalIn(ctx, at{tab: tab}, "({nav: "+navMark+"})", false, &ans)
	if err != nil {
		return "", ""
	}
	return ans.Nav, u
}

func (r *resolved) hover(ctx context.Context) (*drivers.Outcome, error) {
	p, err := r.point(ctx)
	if err != nil {
		return nil, err
	}
	if _, err := r.mouse(ctx, p, "mouseMoved"); err != nil {
		return nil, err
	}
	return &drivers.Outcome{Result: drivers.Done, URL: r.url}, nil
}

// fill replaces the field's text in one engine call that focuses it and
// checks it is still the field CheckField saw; for a checked target the
// call first checks it is the field observed, on the page observed
// (errRecheck when not, with nothing typed).
//
// origins, when not nil, make it a secret_fill: the owner's secret skips
// the credential rules, and the engine types it only into a field whose
// document is of one of origins, read in the call that types.
func (r *resolved) fill(ctx context.Context, value string, origins []string) (*drivers.Outcome, error) {
	check := func(f Field) error {
		if origins != nil {
			return nil
		}
		return r.ts.checkField(f, value)
	}
	if err := check(fieldOf(&r.info)); err != nil {
		if r.checked { // the field as it is now decides, as it does today
			return nil, errRecheck
		}
		return nil, err
	}
	ans, err := r.fillRef(ctx, value, origins)
	if err != nil {
		if drivers.CodeOf(err) != "" || errors.Is(err, errRecheck) {
			return nil, err
		}
		return nil, fail(drivers.CodePartial, nil, "The fill on "+r.ref+" may have half happened: observe before doing anything else.")
	}
	switch ans.Error {
	case "":
		return &drivers.Outcome{Result: drivers.Done, URL: r.url}, nil
	case "recheck":
		return nil, errRecheck
	case "stale":
		if r.checked {
			return nil, errRecheck
		}
		return nil, staleRef(r.ref, "is no longer on the page")
	case "focus", "changed":
		if ans.Info != nil {
			if err := check(fieldOf(ans.Info)); err != nil {
				return nil, err
			}
		}
		return nil, fail(drivers.CodeNotAllowed, nil, "The field "+r.ref+" changed or handed its focus elsewhere as it was focused, so nothing was typed; observe again.")
	}
	if err := ans.Refused(r.ref); err != nil {
		return nil, err
	}
	return nil, fail(drivers.CodeTargetMiss, nil, "The element "+r.ref+" did not take the text; observe again.")
}

// fillRef runs the engine's fill of r's element: checked in the page
// first for a checked target. An error is the call's own, nothing the
// engine answered.
func (r *resolved) fillRef(ctx context.Context, value string, origins []string) (*walker.FillAnswer, error) {
	var ans walker.FillAnswer
	if !r.checked {
		body, err := walker.FillBody(r.ref, value, r.info, origins)
		if err != nil {
			return nil, err
		}
		_, err = r.ts.probeIn(ctx, r.at, body, true, &ans)
		return &ans, err
	}
	body, err := walker.CheckedFillBody(r.ref, value, &r.info, origins)
	if err != nil {
		return nil, err
	}
	var text string
	if err := r.evalChecked(ctx, r.checkedProbe(body), true, &text); err != nil {
		return nil, err
	}
	return &ans, json.Unmarshal([]byte(text), &ans)
}

// selectBody picks the options whose value or label is asked (one, unless
// the list takes several) and tells the page as a person's choice would.
const selectBody = `if (el.localName !== 'select') return {kind: true};
  if (el.disabled) return {kind: true};
  let n = 0;
  for (const o of el.options) {
    const hit = WANT.includes(o.value) || WANT.includes(o.label) || WANT.includes(o.textContent.trim());
    if (el.multiple) { o.selected = hit; if (hit) n++; }
    else if (hit && n === 0) { el.value = o.value; n++; }
  }
  if (n) { el.dispatchEvent(new Event('input', {bubbles: true, composed: true})); el.dispatchEvent(new Event('change', {bubbles: true})); }
  return {n};`

func (r *resolved) selectOptions(ctx context.Context, values []string) (*drivers.Outcome, error) {
	if len(values) == 0 {
		return nil, badInput("Select needs at least one option label or value.")
	}
	want, err := json.Marshal(values)
	if err != nil {
		return nil, err
	}
	var ans struct {
		Gone, Kind bool
		N          int
	}
	body := "const WANT = " + string(want) + "; " + selectBody
	if _, err := r.ts.evalIn(ctx, r.at, onRef(r.ref, body), true, &ans); err != nil {
		return nil, err
	}
	switch {
	case ans.Gone:
		return nil, staleRef(r.ref, "is no longer on the page")
	case ans.Kind:
		return nil, fail(drivers.CodeTargetMiss, nil, "The element "+r.ref+" is not a list to choose from, or it is disabled.")
	case ans.N == 0:
		return nil, fail(drivers.CodeTargetMiss, nil, "The list "+r.ref+" has no option with that label or value; observe within it to see its options.")
	}
	return &drivers.Outcome{Result: drivers.Done, URL: r.url}, nil
}

const submitBody = `const form = el instanceof HTMLFormElement ? el : el.form || el.closest('form');
  if (!form) return {none: true};
  form.requestSubmit(el !== form && (el.type === 'submit' || el.type === 'image') ? el : undefined);
  return {};`

func (r *resolved) submit(ctx context.Context) (*drivers.Outcome, error) {
	var ans struct{ Gone, None bool }
	group, err := r.ts.evalOpened(ctx, r.at, onRef(r.ref, submitBody), &ans)
	if err != nil {
		return nil, err
	}
	if ans.Gone {
		return nil, staleRef(r.ref, "is no longer on the page")
	}
	if ans.None {
		return nil, badInput("The element " + r.ref + " is not in a form; click its button instead.")
	}
	out, err := r.ts.settled(ctx, r.at.tab, r.url, group)
	if out != nil {
		out.Changed = true
	}
	return out, err
}

package extension

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/messages"
)

// errRecheck is a quick input that found its element not as observed,
// having done nothing: the input goes the long way (resolve), whose check
// says what changed.
var errRecheck = errors.New("extension: recheck the target")

// quick resolves tg with no call to the page, from what the tab's latest
// observation read of its element, when that fingerprints as tg. The
// check resolve makes before any input (the page at the address it was
// read at, the same node with the same attributes, role and name, still
// rendered) is then made in the page by the one call that acts, which
// answers errRecheck, having done nothing, when it does not hold (see
// checkedExpr and evalChecked). nil means resolve the long way: a
// semantic target, or a ref the tab's latest observation did not show.
func (ts *Tabs) quick(tg *drivers.Target) *resolved {
	if tg == nil || tg.Ref == "" || tg.Tree != "" {
		return nil
	}
	tab := ts.current()
	if tg.Tab != "" {
		n, ok := parseTab(tg.Tab)
		if !ok {
			return nil
		}
		tab = n
	}
	p := ts.seenOf(tab)
	info, ok := p.infos[tg.Ref]
	frame := p.frames.refs[tg.Ref]
	doc := p.observed
	if frame != "" {
		doc = p.frames.urls[frame]
	}
	if !ok || p.observed == "" || doc == "" || info.Fingerprint(p.observed, p.frames.urls[frame]) != tg.Fingerprint {
		return nil
	}
	return &resolved{ts: ts, at: at{tab: tab, frame: frame}, ref: tg.Ref, info: info, url: p.observed, doc: doc, checked: true}
}

// evalChecked runs expr, one of r's checked expressions (or, for a
// target resolve checked, any), in r's document and decodes its value
// into out. For a checked target in a frame, whose document does not
// know the page's address, the extension first checks the tab's page is
// still at r.url (evalat); a page elsewhere, a frame gone, or a build of
// the extension that cannot check answer errRecheck, nothing having run.
func (r *resolved) evalChecked(ctx context.Context, expr string, input bool, out any) error {
	if !r.checked || r.at.frame == "" {
		_, err := r.ts.evalIn(ctx, r.at, expr, input, out)
		return err
	}
	p := r.at.params(r.ts.conv)
	p["expr"], p["input"], p["page"] = expr, input, r.url
	var ans struct {
		Moved bool            `json:"moved"`
		Value json.RawMessage `json:"value"`
	}
	err := r.ts.d.call(ctx, "evalat", p, &ans)
	switch c := drivers.CodeOf(err); {
	case c == messages.CodeUnsupported || c == frameGone || (err == nil && ans.Moved):
		return errRecheck
	case err != nil:
		return err
	}
	return json.Unmarshal(ans.Value, out)
}

// checkedExpr is the expression that runs body with el bound to r's
// element once the document checks, in the same call, that it is still at
// r.doc and that the element is the one r.info describes (the engine's
// checked ref: rendered, and fingerprinting as observed, autocomplete and
// input mode in); otherwise it answers {recheck: true} and runs nothing.
func (r *resolved) checkedExpr(body string) (string, error) {
	sel, err := walker.CheckedRef(r.ref, &r.info)
	if err != nil {
		return "", err
	}
	q, _ := json.Marshal(sel)
	u, _ := json.Marshal(r.doc)
	return "(() => { if (document.URL !== " + string(u) + ") return {recheck: true}; let el; " +
		"try { el = __buddi.queryAll(document, " + string(q) + ")[0]; } catch (e) { return {recheck: true}; } " +
		"if (!el) return {recheck: true}; " + body + " })()", nil
}

// checkedProbe is the expression that runs the engine op body (whose own
// arguments check the element, as a checked fill does) only while the
// document is still at r.doc, and otherwise answers the op's recheck.
func (r *resolved) checkedProbe(body string) string {
	u, _ := json.Marshal(r.doc)
	return "(document.URL === " + string(u) + " ? " + probeOf(body) + ` : '{"error":"recheck"}')`
}

package extension

import (
	"encoding/json"
	"errors"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
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
// checkedExpr). nil means resolve the long way: a semantic target, a ref
// no observation of the tab's page showed, or one read in a frame, whose
// page address only the extension reads and only before the call.
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
	if !ok || p.observed == "" || p.frames.refs[tg.Ref] != "" || info.Fingerprint(p.observed, "") != tg.Fingerprint {
		return nil
	}
	return &resolved{ts: ts, at: at{tab: tab}, ref: tg.Ref, info: info, url: p.observed, checked: true}
}

// checkedExpr is the expression that runs body with el bound to r's
// element once the page checks, in the same call, that it is still at
// r.url and that the element is the one r.info describes (the engine's
// checked ref: rendered, and fingerprinting as observed, autocomplete and
// input mode in); otherwise it answers {recheck: true} and runs nothing.
func (r *resolved) checkedExpr(body string) (string, error) {
	sel, err := walker.CheckedRef(r.ref, &r.info)
	if err != nil {
		return "", err
	}
	q, _ := json.Marshal(sel)
	u, _ := json.Marshal(r.url)
	return "(() => { if (document.URL !== " + string(u) + ") return {recheck: true}; let el; " +
		"try { el = __buddi.queryAll(document, " + string(q) + ")[0]; } catch (e) { return {recheck: true}; } " +
		"if (!el) return {recheck: true}; " + body + " })()", nil
}

// checkedProbe is the expression that runs the engine op body (whose own
// arguments check the element, as a checked fill does) only while the
// page is still at r.url, and otherwise answers the op's recheck.
func (r *resolved) checkedProbe(body string) string {
	u, _ := json.Marshal(r.url)
	return "(document.URL === " + string(u) + " ? " + probeOf(body) + ` : '{"error":"recheck"}')`
}

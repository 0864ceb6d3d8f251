package playwright

import (
	"context"
	"errors"
	"strings"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
)

// resolved is a target checked against the live page, ready for input.
type resolved struct {
	t    *tab
	ref  string
	f    pw.Frame
	loc  pw.Locator
	info elemInfo
	// checked is set when info is the observation's, not a read made
	// now: the call that acts checks the element in the page (quick).
	checked bool
}

// errRecheck is a quick input that found its element not as observed,
// having done nothing: the input goes the long way, whose check says
// what changed.
var errRecheck = errors.New("playwright: recheck the target")

// quick resolves tg with no call to the page, from what the latest
// observation read of its element, when that still fingerprints as tg on
// the page and frame as they are now. The check resolve makes before any
// input (the same node, attributes, role and name, rendered) is then made
// in the page by the call that acts, which fails with errRecheck,
// dispatching nothing, when it does not hold. nil means resolve the long
// way: a semantic target, a ref no observation of this page showed, a
// page or frame that moved.
func (ts *Tabs) quick(tg *drivers.Target) *resolved {
	if tg == nil || tg.Ref == "" || tg.Tree != "" {
		return nil
	}
	t, err := ts.byID(tg.Tab)
	if err != nil {
		return nil
	}
	info, f, ok := t.observed(tg.Ref)
	if f == nil {
		f = t.page.MainFrame()
	}
	if !ok || f.IsDetached() || t.observedURL() != t.page.URL() || info.Fingerprint(t.page.URL(), frameURL(f)) != tg.Fingerprint {
		return nil
	}
	body, err := walker.CheckedRef(tg.Ref, &info)
	if err != nil {
		return nil
	}
	t.watch.touching() // what follows may navigate, as the agent's doing
	return &resolved{t: t, ref: tg.Ref, f: f, loc: f.Locator(engineName + "=" + body), info: info, checked: true}
}

// rechecked reports whether err is a quick input's check failing in the
// page.
func (r *resolved) rechecked(err error) bool {
	return r.checked && err != nil && strings.Contains(err.Error(), walker.Recheck)
}

// resolve finds the target's element on its tab and checks, before any
// input, that it is the element the observation fingerprinted: the same
// node (refs live on nodes and are never given twice), with the same
// attributes, role and name, on the same page, still connected and rendered.
// It is one engine call.
func (ts *Tabs) resolve(ctx context.Context, tg *drivers.Target) (*resolved, error) {
	if tg == nil || tg.Ref == "" {
		return nil, badInput("This action needs a target: a ref from the latest observation.")
	}
	t, err := ts.byID(tg.Tab)
	if err != nil {
		return nil, err
	}
	t.watch.touching() // what follows may navigate, as the agent's doing
	ref := tg.Ref
	f := t.page.MainFrame()
	if fr := t.frameOf(ref); fr != nil {
		if f = fr; f.IsDetached() {
			return nil, staleRef(ref, "was in a frame that is gone")
		}
	}
	if now, then := t.page.URL(), t.observedURL(); then != "" && now != then {
		return nil, staleRef(ref, "belongs to a page the tab has left (it is now at "+now+")")
	}
	var infos map[string]elemInfo
	if err := t.probe(ctx, f, "fp "+ref, &infos); err != nil {
		return nil, t.failed(err, notAnswering)
	}
	info, ok := infos[ref]
	if !ok {
		return nil, staleRef(ref, "is no longer on the page")
	}
	if info.Fingerprint(t.page.URL(), frameURL(f)) != tg.Fingerprint {
		return nil, staleRef(ref, "changed since the observation (what it is, its name, or where it points)")
	}
	if !info.Visible {
		return nil, staleRef(ref, "is hidden now")
	}
	if tg.Tree != "" {
		if err := t.sameTree(ctx, ref, tg.Tree); err != nil {
			return nil, err
		}
	}
	return &resolved{t: t, ref: ref, f: f, loc: f.Locator(refSelector(ref)), info: info}, nil
}

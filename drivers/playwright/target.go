package playwright

import (
	"context"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// resolved is a target checked against the live page, ready for input.
type resolved struct {
	t    *tab
	ref  string
	f    pw.Frame
	loc  pw.Locator
	info elemInfo
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
	if err := probe(ctx, f, "fp "+ref, &infos); err != nil {
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

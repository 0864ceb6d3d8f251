package playwright

import (
	"context"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	pw "github.com/mxschmitt/playwright-go"
)

// resolved is a target checked against the live page, ready for input.
type resolved struct {
	t    *tab
	ref  string
	loc  pw.Locator
	info elemInfo
}

// resolve finds the target's element on its tab and checks, before any
// input, that it is the element the observation fingerprinted: the same
// node (refs live on nodes), with the same attributes, on the same page,
// with the same role and name, still connected and visible.
func (ts *Tabs) resolve(ctx context.Context, tg *drivers.Target) (*resolved, error) {
	if tg == nil || tg.Ref == "" {
		return nil, badInput("This action needs a target: a ref from the latest observation.")
	}
	t, err := ts.byID(tg.Tab)
	if err != nil {
		return nil, err
	}
	ref := tg.Ref
	f := t.page.MainFrame()
	if strings.HasPrefix(ref, "f") {
		if f = t.frameOf(ref); f == nil || f.IsDetached() {
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
	if info.fingerprint(t.page.URL(), frameURL(f)) != tg.Fingerprint {
		return nil, staleRef(ref, "changed since the observation")
	}
	if err := recheck(ctx, f, ref); err != nil {
		return nil, t.failed(err, func(error) error { return staleRef(ref, "could not be read again") })
	}
	return &resolved{t: t, ref: ref, loc: f.Locator(refSelector(ref)), info: info}, nil
}

// recheck snapshots the element alone: Playwright keeps a node's ref only
// while its role and name stay the same and gives none to a hidden node, so
// the ref reappearing proves both.
func recheck(ctx context.Context, f pw.Frame, ref string) error {
	loc := f.Locator(refSelector(ref))
	s, err := call(ctx, func() (string, error) {
		return loc.AriaSnapshot(pw.LocatorAriaSnapshotOptions{Mode: pw.AriaSnapshotModeAi, Timeout: ms(ctx, 3*time.Second)})
	})
	if err != nil {
		return err
	}
	if !strings.Contains(s, "[ref="+ref+"]") {
		return staleRef(ref, "changed since the observation (its role, name or visibility)")
	}
	return nil
}

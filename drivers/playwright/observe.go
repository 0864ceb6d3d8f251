package playwright

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	pw "github.com/mxschmitt/playwright-go"
)

// Observe captures the active tab.
func (ts *Tabs) Observe(ctx context.Context, opts drivers.ObserveOptions) (*drivers.Observation, error) {
	ctx, cancel := withDefault(ctx, 30*time.Second)
	defer cancel()
	ctx, end, err := ts.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer end()
	t, err := ts.current()
	if err != nil {
		return nil, err
	}
	obs, err := t.observe(ctx, opts)
	if err != nil {
		return nil, ended(err, drivers.CodeNotAnswering, msgNotAnswering)
	}
	obs.Tabs = ts.list(ctx)
	for _, ti := range obs.Tabs {
		if ti.ID == obs.Tab {
			obs.Title = ti.Title
		}
	}
	return obs, nil
}

func (t *tab) observe(ctx context.Context, opts drivers.ObserveOptions) (*drivers.Observation, error) {
	max := opts.MaxChars
	if max <= 0 {
		max = defaultTreeChars
		if opts.FullPage {
			max = defaultFullChars
		}
	}
	pageURL := t.page.URL()
	text, truncated, err := t.tree(ctx, opts.FullPage, max)
	if err != nil {
		return nil, t.failed(err, notAnswering)
	}
	infos, frames, err := t.readRefs(ctx, refsIn(text))
	if err != nil {
		return nil, t.failed(err, notAnswering)
	}
	text = redactPasswords(text, func(ref string) bool { i, ok := infos[ref]; return !ok || i.Password })
	obs := &drivers.Observation{URL: pageURL, Tab: t.id, Tree: text, Truncated: truncated,
		Refs: make(map[string]drivers.Target, len(infos)), TakenAt: time.Now().UTC()}
	for _, ref := range refsIn(text) {
		tg := drivers.Target{Ref: ref, Tab: t.id} // unread refs keep no fingerprint: acting on them is refused
		if info, ok := infos[ref]; ok {
			tg.Role, tg.Name = info.Role, info.Name
			tg.Fingerprint = info.fingerprint(pageURL, frameURL(frames[ref]))
		}
		obs.Refs[ref] = tg
	}
	t.setRefs(pageURL, frames)
	if opts.Screenshot {
		shot, err := t.screenshot(ctx, false)
		if err != nil {
			return nil, t.failed(err, notAnswering)
		}
		obs.Screenshot = shot.jpeg
	}
	return obs, nil
}

// readRefs reads every ref's element: refs of the main document in one
// engine call, refs inside frames with one call per frame.
func (t *tab) readRefs(ctx context.Context, refs []string) (map[string]elemInfo, map[string]pw.Frame, error) {
	infos := map[string]elemInfo{}
	frames := map[string]pw.Frame{}
	if len(refs) == 0 {
		return infos, frames, ctx.Err()
	}
	// A frame prefix does not mean a child frame: the main frame of any page
	// but the context's first has one too. So the main document is asked for
	// every ref, and child frames only for what it did not hold.
	main := t.page.MainFrame()
	if err := probe(ctx, main, "fp "+strings.Join(refs, " "), &infos); err != nil {
		return nil, nil, err
	}
	var framed []string
	for _, r := range refs {
		if _, ok := infos[r]; ok {
			frames[r] = main
		} else if strings.HasPrefix(r, "f") {
			framed = append(framed, r)
		}
	}
	if len(framed) > 0 {
		readFramed(ctx, t.page.Frames(), framed, infos, frames)
	}
	return infos, frames, ctx.Err()
}

// readFramed asks every child frame for the framed refs; each ref is found
// in the one frame whose snapshot gave it.
func readFramed(ctx context.Context, all []pw.Frame, refs []string, infos map[string]elemInfo, frames map[string]pw.Frame) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	body := "fp " + strings.Join(refs, " ")
	for _, f := range all {
		if f.ParentFrame() == nil || f.IsDetached() {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var got map[string]elemInfo
			if probe(ctx, f, body, &got) != nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			for r, info := range got {
				infos[r], frames[r] = info, f
			}
		}()
	}
	wg.Wait()
}

// frameURL is part of a framed ref's fingerprint; "" for the main frame.
func frameURL(f pw.Frame) string {
	if f == nil || f.ParentFrame() == nil {
		return ""
	}
	return f.URL()
}

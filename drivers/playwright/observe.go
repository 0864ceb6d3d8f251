package playwright

import (
	"context"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// Observe captures the active tab: what is on screen and an outline of the
// rest, a part of the whole page or of a region, or the matches of a find.
func (ts *Tabs) Observe(ctx context.Context, opts drivers.ObserveOptions) (*drivers.Observation, error) {
	ctx, cancel := withDefault(ctx, 30*time.Second)
	defer cancel()
	ctx, end, err := ts.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer end()
	t, err := ts.current()
	if err != nil {
		return nil, ts.explain(err)
	}
	obs, err := t.observe(ctx, opts)
	if err != nil {
		err = ended(err, drivers.CodeNotAnswering, msgNotAnswering)
		t.witness(ctx, err)
		return nil, ts.explain(err)
	}
	obs.Tabs = ts.list(ctx, t, obs.Title)
	obs.Bound()
	return obs, nil
}

func (t *tab) observe(ctx context.Context, opts drivers.ObserveOptions) (*drivers.Observation, error) {
	args, f, err := t.readArgs(opts)
	if err != nil {
		return nil, err
	}
	pageURL := t.page.URL()
	frames := map[string]pw.Frame{}
	ans, err := t.readWithFrames(ctx, f, args, frames)
	if err != nil {
		return nil, t.failed(err, notAnswering)
	}
	t.remember(opts)
	if f == t.page.MainFrame() {
		t.keepMark(pageURL, navAnswer{Nav: ans.Nav, Owner: ans.Owner, Title: ans.Title})
	}
	obs := &drivers.Observation{URL: pageURL, Title: ans.Title, Tab: t.id, Tree: ans.Tree,
		Continues: ans.Continues.Driver(), Truncated: ans.Continues != nil,
		Refs: make(map[string]drivers.Element, len(ans.Infos)), TakenAt: time.Now().UTC()}
	shown := drivers.RefsIn(ans.Tree)
	if ans.Continues != nil {
		shown = append(shown, ans.Continues.After)
	}
	infos := make(map[string]elemInfo, len(shown))
	for _, ref := range shown {
		info, ok := ans.Infos[ref]
		if !ok {
			continue
		}
		infos[ref] = info
		obs.Refs[ref] = drivers.Element{Ref: ref, Role: info.Role, Name: info.Name,
			Label: info.Label, Placeholder: info.Placeholder, Text: info.Text, Frame: t.frameNumber(frames[ref]),
			Fingerprint: info.Fingerprint(pageURL, frameURL(frames[ref]))}
	}
	t.setRefs(pageURL, frames, infos)
	if opts.Screenshot {
		shot, err := t.screenshot(ctx, false)
		if err != nil {
			return nil, t.failed(err, notAnswering)
		}
		obs.Screenshot = shot.jpeg
	}
	return obs, nil
}

// findArgs are the engine's arguments of a find, which searches the whole
// document of the page and then of each of its frames.
func findArgs(opts drivers.ObserveOptions, main pw.Frame) (readArgs, pw.Frame, error) {
	if opts.Find.Text == "" && opts.Find.Role == "" && opts.Find.Name == "" {
		return readArgs{}, nil, badInput("find needs text, role or name.")
	}
	args := readArgs{Mode: "full", Max: opts.MaxChars, Find: opts.Find}
	if args.Max <= 0 {
		args.Max = defaultFindChars
	}
	return args, main, nil
}

// regionFrame checks the refs a region read or a continuation names and
// returns the frame their element is in (the main frame by default).
func (t *tab) regionFrame(opts drivers.ObserveOptions) (pw.Frame, error) {
	f := t.page.MainFrame()
	for _, tg := range []*drivers.Target{opts.Within, opts.After} {
		if tg == nil {
			continue
		}
		if tg.Tab != "" && tg.Tab != t.id {
			return nil, staleRef(tg.Ref, "is in another tab; switch to it and observe there")
		}
		if now, then := t.page.URL(), t.observedURL(); then != "" && now != then {
			return nil, staleRef(tg.Ref, "belongs to a page the tab has left (it is now at "+now+")")
		}
		if fr := t.frameOf(tg.Ref); fr != nil {
			f = fr
		}
	}
	return f, nil
}

// readArgs turns observe options into the engine's arguments and picks the
// frame to read: a region or continuation is read where its element is.
func (t *tab) readArgs(opts drivers.ObserveOptions) (readArgs, pw.Frame, error) {
	args := readArgs{Mode: "view", Max: opts.MaxChars, Outline: true}
	if opts.Find != nil {
		return findArgs(opts, t.page.MainFrame())
	}
	f, err := t.regionFrame(opts)
	if err != nil {
		return args, nil, err
	}
	if opts.FullPage || opts.Within != nil {
		args = readArgs{Mode: "full", Max: opts.MaxChars}
		if opts.Within != nil {
			args.Within, args.Rows = opts.Within.Ref, opts.Rows
		}
		if opts.After != nil {
			args.After = opts.After.Ref
		}
		if args.Max <= 0 {
			args.Max = defaultFullChars
		}
		return args, f, nil
	}
	if opts.After != nil {
		return args, nil, badInput("after continues a fullPage or within read; send it with fullPage: true or within.")
	}
	if args.Max <= 0 {
		args.Max = defaultTreeChars
	}
	return args, f, nil
}

// frameURL is part of a framed ref's fingerprint; "" for the main frame.
func frameURL(f pw.Frame) string {
	if f == nil || f.ParentFrame() == nil {
		return ""
	}
	return f.URL()
}

package extension

import (
	"context"
	"encoding/json"
	"net/url"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
)

// Tree bounds, in characters: the same as the Playwright driver's.
const (
	defaultTreeChars = 3800
	defaultFullChars = 50000
	defaultFindChars = 8000
)

// readRetries are the waits before reading a page again that did not
// answer: the engine is put in again each time.
var readRetries = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second}

// The engine's read arguments and answers, and what it reads of an
// element (drivers/walker).
type (
	readArgs   = walker.ReadArgs
	readAnswer = walker.Answer
	elemInfo   = walker.Info
)

// fieldOf is the element as CheckField sees it.
func fieldOf(e *elemInfo) Field { return walker.FieldOf(e) }

// Observe reads the active tab: what is on screen and an outline of the
// rest, a part of the page or of a region, or a find's matches.
func (ts *Tabs) Observe(ctx context.Context, opts drivers.ObserveOptions) (*drivers.Observation, error) {
	ctx, end, err := ts.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer end()
	tab := ts.current()
	args, err := ts.readArgs(tab, opts)
	if err != nil {
		return nil, err
	}
	ans, err := ts.readAgain(ctx, tab, args)
	if err != nil {
		return nil, ts.afterDrop(ctx, interrupted(ctx, err))
	}
	obs := &drivers.Observation{URL: ans.URL, Title: ans.Title, Tab: tabID(tab), Tree: ans.Tree,
		Refs: make(map[string]drivers.Target, len(ans.Infos)), TakenAt: time.Now().UTC()}
	shown := drivers.RefsIn(ans.Tree)
	if c := ans.Continues; c != nil {
		obs.Continues, obs.Truncated = c.Driver(), true
		shown = append(shown, c.After)
	}
	for _, ref := range shown {
		if info, ok := ans.Infos[ref]; ok {
			obs.Refs[ref] = drivers.Target{Ref: ref, Tab: obs.Tab, Role: info.Role, Name: info.Name,
				Label: info.Label, Placeholder: info.Placeholder, Text: info.Text, Fingerprint: info.Fingerprint(ans.URL, "")}
		}
	}
	ts.setObserved(tab, ans.URL, args)
	if obs.Tabs, err = ts.list(ctx); err != nil {
		return nil, interrupted(ctx, err)
	}
	if opts.Screenshot {
		shot, err := ts.shoot(ctx, tab, false)
		if err != nil {
			return nil, interrupted(ctx, err)
		}
		obs.Screenshot = shot.jpeg
	}
	obs.Bound()
	return obs, nil
}

// readAgain reads the page, and when it does not answer reads it up to
// three more times, after 0.5, 1 and 2 seconds, with the engine put in
// again, before saying it has not answered.
func (ts *Tabs) readAgain(ctx context.Context, tab int, args readArgs) (*readAnswer, error) {
	for i := 0; ; i++ {
		ans, err := ts.read(ctx, tab, args)
		if err == nil || drivers.CodeOf(err) != drivers.CodeNotAnswering || i == len(readRetries) {
			return ans, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(readRetries[i]):
		}
	}
}

func (ts *Tabs) read(ctx context.Context, tab int, args readArgs) (*readAnswer, error) {
	ts.mu.Lock()
	args.Base = ts.nextRef
	ts.mu.Unlock()
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	var ans readAnswer
	if err := ts.probe(ctx, tab, "observe "+url.PathEscape(string(raw)), false, &ans); err != nil {
		if drivers.CodeOf(err) == "" {
			return nil, notAnswering(err)
		}
		return nil, err
	}
	if ans.Error != "" {
		return nil, staleRef(ans.Ref, "is no longer on the page")
	}
	ts.mu.Lock()
	ts.nextRef = max(ts.nextRef, ans.Next)
	ts.mu.Unlock()
	return &ans, nil
}

// readArgs turns observe options into the engine's arguments. A region or
// continuation must name an element of the page the tab is still on.
func (ts *Tabs) readArgs(tab int, opts drivers.ObserveOptions) (readArgs, error) {
	if opts.Find != nil {
		if opts.Find.Text == "" && opts.Find.Role == "" && opts.Find.Name == "" {
			return readArgs{}, badInput("find needs text, role or name.")
		}
		return readArgs{Mode: "full", Max: orDefault(opts.MaxChars, defaultFindChars), Find: opts.Find}, nil
	}
	for _, tg := range []*drivers.Target{opts.Within, opts.After} {
		if tg != nil && tg.Tab != "" && tg.Tab != tabID(tab) {
			return readArgs{}, staleRef(tg.Ref, "is in another tab; switch to it and observe there")
		}
	}
	if opts.FullPage || opts.Within != nil {
		a := readArgs{Mode: "full", Max: orDefault(opts.MaxChars, defaultFullChars)}
		if opts.Within != nil {
			a.Within, a.Rows = opts.Within.Ref, opts.Rows
		}
		if opts.After != nil {
			a.After = opts.After.Ref
		}
		return a, nil
	}
	if opts.After != nil {
		return readArgs{}, badInput("after continues a fullPage or within read; send it with fullPage: true or within.")
	}
	return readArgs{Mode: "view", Max: orDefault(opts.MaxChars, defaultTreeChars), Outline: true}, nil
}

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

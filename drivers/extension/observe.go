package extension

import (
	"context"
	"encoding/json"
	"fmt"
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
// rest, with the frames it shows; a part of the page or of a region; or a
// find's matches, in the page and every frame.
func (ts *Tabs) Observe(ctx context.Context, opts drivers.ObserveOptions) (*drivers.Observation, error) {
	ctx, end, err := ts.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer end()
	tab := ts.current()
	args, in, err := ts.readArgs(tab, opts)
	if err != nil {
		return nil, err
	}
	fr := newFraming(nil)
	if in.frame != "" { // a region of a frame keeps the frames' numbers
		fr = newFraming(ts.seenOf(tab).frames.nos)
	}
	r, err := ts.readWithFrames(ctx, in, args, fr)
	if err != nil {
		return nil, ts.afterDrop(ctx, interrupted(ctx, err))
	}
	obs := &drivers.Observation{URL: r.page, Title: r.Title, Tab: tabID(tab), Tree: r.Tree,
		Refs: make(map[string]drivers.Element, len(r.Infos)), TakenAt: time.Now().UTC()}
	if in.frame != "" {
		obs.Title = ""
	}
	shown := drivers.RefsIn(r.Tree)
	if c := r.Continues; c != nil {
		obs.Continues, obs.Truncated = c.Driver(), true
		shown = append(shown, c.After)
	}
	infos := make(map[string]elemInfo, len(shown))
	for _, ref := range shown {
		if info, ok := r.Infos[ref]; ok {
			infos[ref] = info
			f := fr.refs[ref]
			obs.Refs[ref] = drivers.Element{Ref: ref, Role: info.Role, Name: info.Name,
				Label: info.Label, Placeholder: info.Placeholder, Text: info.Text, Frame: fr.nos[f],
				Fingerprint: info.Fingerprint(r.page, fr.urls[f])}
		}
	}
	ts.setObserved(in, r.page, args, infos, fr)
	if obs.Tabs, err = ts.list(ctx); err != nil {
		return nil, interrupted(ctx, err)
	}
	if obs.Title == "" {
		obs.Title = activeTitle(obs.Tabs)
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

// activeTitle is the active tab's title in tabs.
func activeTitle(tabs []drivers.TabInfo) string {
	for _, t := range tabs {
		if t.Active {
			return t.Title
		}
	}
	return ""
}

// reading is one read of one document: the engine's answer, the address
// of the tab's page, how many frames the document holds, and, for a view
// or full read of the page, the frames its iframes hold (Frames' slots,
// in order) and those frames' own reads.
type reading struct {
	*readAnswer
	page   string
	frames int
	held   []string
	each   []*eachResult
}

// readAgain reads a document, and when the page does not answer reads it
// up to three more times, after 0.5, 1 and 2 seconds, with the engine put
// in again, before saying it has not answered.
func (ts *Tabs) readAgain(ctx context.Context, in at, args readArgs) (*reading, error) {
	for i := 0; ; i++ {
		r, err := ts.read(ctx, in, args)
		if err == nil || drivers.CodeOf(err) != drivers.CodeNotAnswering || i == len(readRetries) {
			return r, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(readRetries[i]):
		}
	}
}

// readExpr reads a document with the engine op q and answers its JSON,
// how many frames the document holds and the next ref number; it leaves
// the elements of the iframes the read showed for heldSlots (null for
// none, which the extension answers without looking further).
const readExpr = `(() => { const t = __buddi.queryAll(document, %s)[0].textContent;
  const a = window.length ? JSON.parse(t) : null;
  const slots = (a && a.frames) || [];
  globalThis.__buddiSlots = slots.length ? slots.map((s) => __buddi.queryAll(document, 'ref ' + s.ref)[0]) : null;
  return {t, n: window.length, next: a ? a.next : 0}; })()`

// heldSlots names the iframes the latest read in this world showed.
const heldSlots = "globalThis.__buddiSlots"

// frameReadFn reads a frame's document with the engine's arguments %s,
// numbering refs on from where the read before it stopped.
const frameReadFn = `function (prev) { const a = %s; a.base = Math.max(a.base, (prev && prev.next) || 0);
  const t = __buddi.queryAll(document, 'observe ' + encodeURIComponent(JSON.stringify(a)))[0].textContent;
  return {t, next: JSON.parse(t).next}; }`

// read reads the document in, numbering new refs from the conversation's
// counter. A view or full read of the page also reads, in the same call,
// the frames its iframes hold, as the Playwright driver reads them (a
// view of half the budget each), each numbering on from the one before.
func (ts *Tabs) read(ctx context.Context, in at, args readArgs) (*reading, error) {
	ts.mu.Lock()
	args.Base = ts.nextRef
	ts.mu.Unlock()
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	q, _ := json.Marshal("observe " + url.PathEscape(string(raw)))
	var out struct {
		Text   string `json:"t"`
		Frames int    `json:"n"`
	}
	held, each := "", ""
	if in.frame == "" && args.Find == nil {
		sub, err := json.Marshal(readArgs{Base: args.Base, Mode: "view", Max: args.Max / 2})
		if err != nil {
			return nil, err
		}
		held, each = heldSlots, fmt.Sprintf(frameReadFn, sub)
	}
	ev, err := ts.evalHeld(ctx, in, fmt.Sprintf(readExpr, q), held, each, false, &out)
	if err != nil {
		if drivers.CodeOf(err) == "" {
			return nil, notAnswering(err)
		}
		return nil, err
	}
	ans, err := ts.answer(out.Text)
	if err != nil {
		return nil, err
	}
	r := &reading{readAnswer: ans, page: ans.URL, frames: out.Frames, held: ev.Held, each: ev.Each}
	if in.frame != "" {
		r.page = ev.URL
	}
	return r, nil
}

// answer decodes the engine's answer to a read and moves the
// conversation's ref counter past the refs it gave.
func (ts *Tabs) answer(text string) (*readAnswer, error) {
	var ans readAnswer
	if err := json.Unmarshal([]byte(text), &ans); err != nil {
		return nil, notAnswering(err)
	}
	if ans.Error != "" {
		return nil, staleRef(ans.Ref, "is no longer on the page")
	}
	ts.mu.Lock()
	ts.nextRef = max(ts.nextRef, ans.Next)
	ts.mu.Unlock()
	return &ans, nil
}

// readArgs turns observe options into the engine's arguments and picks
// the document to read: a region or continuation is read where its
// element was read.
func (ts *Tabs) readArgs(tab int, opts drivers.ObserveOptions) (readArgs, at, error) {
	in := at{tab: tab}
	if opts.Find != nil {
		if opts.Find.Text == "" && opts.Find.Role == "" && opts.Find.Name == "" {
			return readArgs{}, in, badInput("find needs text, role or name.")
		}
		return readArgs{Mode: "full", Max: orDefault(opts.MaxChars, defaultFindChars), Find: opts.Find}, in, nil
	}
	for _, tg := range []*drivers.Target{opts.Within, opts.After} {
		if tg == nil {
			continue
		}
		if tg.Tab != "" && tg.Tab != tabID(tab) {
			return readArgs{}, in, staleRef(tg.Ref, "is in another tab; switch to it and observe there")
		}
		if f := ts.frameOfRef(tab, tg.Ref); f != "" {
			in.frame = f
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
		return a, in, nil
	}
	if opts.After != nil {
		return readArgs{}, in, badInput("after continues a fullPage or within read; send it with fullPage: true or within.")
	}
	return readArgs{Mode: "view", Max: orDefault(opts.MaxChars, defaultTreeChars), Outline: true}, in, nil
}

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

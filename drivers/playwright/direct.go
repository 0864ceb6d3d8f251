package playwright

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/drivers/walker"
)

// A read of the main frame goes straight to the engine over the tab's own
// DevTools session: one Runtime.evaluate in Playwright's isolated world of
// the document, where the locator path (probe) takes Playwright's selector
// machinery, about a millisecond more per read on this machine. The first
// read of a document loads the engine into that world itself (install),
// without Playwright's injected script: that script is what a document's
// first query through Playwright waited for, 80-140 ms here against
// 25-50 ms for the engine alone. Playwright's copy of the engine, made
// there when an input first goes through a locator, is the same engine
// (walker.Engine), so a ref the direct read gave is the ref the locator
// finds. Whenever the direct read cannot answer, the read goes the locator
// way, which gives the same answer. Only reads that change nothing in the
// page go direct, so a read that is sent twice (direct, then the locator
// way) does no harm.

// utilityWorld starts the name of Playwright's isolated world, the one
// its content-script engines (buddi's) run in.
const utilityWorld = "__playwright_utility_world_"

// directExpr calls the engine's direct read with body: its answer's text,
// false when the document has been put away, undefined when the engine
// has not published it in this document.
func directExpr(body string) string {
	quoted, _ := json.Marshal(body) // a JSON string is a JavaScript string literal
	return `(() => { const read = globalThis.` + walker.DirectRead + `; return typeof read === 'function' ? read(` + string(quoted) + `) : undefined; })()`
}

// directBodies are the engine's bodies that only read.
var directBodies = map[string]bool{"observe": true, "fp": true, "nav": true, "focus": true, "html": true}

// world is the tab's engine world in one document of its main frame.
type world struct {
	doc  uint64      // the tab's document count when it was found (tab.docs)
	id   int         // its DevTools execution context
	dead atomic.Bool // no use asking it again in this document
}

// probe runs one engine read in frame f and decodes its JSON into v: in
// the main frame directly when it can, the locator way otherwise.
func (t *tab) probe(ctx context.Context, f pw.Frame, body string, v any) error {
	op, _, _ := strings.Cut(body, " ")
	if directBodies[op] && f == t.page.MainFrame() {
		txt, ok, err := t.direct(ctx, body)
		if err != nil {
			return err
		}
		if ok {
			t.owner.directReads.Add(1)
			return decodeAnswer(body, txt, v)
		}
		t.owner.lateReads.Add(1)
	}
	return probe(ctx, f, body, v)
}

// errDirectWait is a direct read the page did not answer in its time.
var errDirectWait = errors.New("playwright: the page did not answer a read in time")

// direct runs body in the engine's world of the main frame's document:
// ok is false when that is not possible now (no world known yet, a world
// gone, an engine that has not published its read), and the caller reads
// the locator way. An error is only a page that did not answer in time.
func (t *tab) direct(ctx context.Context, body string) (string, bool, error) {
	w := t.world.Load()
	if w == nil || w.doc != t.docs.Load() {
		if w = t.install(ctx); w == nil {
			return "", false, nil
		}
	}
	s := t.session()
	if w.dead.Load() || s == nil {
		return "", false, nil
	}
	wait := underLoad(readWait)
	c, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	v, err := call(c, func() (any, error) {
		return send(s, cdp.Evaluate{Expression: directExpr(body), ContextID: w.id, ReturnByValue: true})
	})
	switch {
	case errors.Is(err, errAbandoned) && ctx.Err() != nil:
		return "", false, err
	case errors.Is(err, errAbandoned):
		return "", false, fmt.Errorf("%w (%s)", errDirectWait, wait)
	case err != nil: // the world's document is gone
		w.dead.Store(true)
		return "", false, nil
	}
	if m, _ := v.(map[string]any); m["exceptionDetails"] != nil {
		return "", false, nil // the engine threw: the locator way reports it as it always has
	}
	switch r := resultValue(v).(type) {
	case string:
		return r, true, nil
	case bool: // the document was put away
		w.dead.Store(true)
		return "", false, nil
	}
	// Not published: install publishes it as it loads the engine, so this
	// world is not the engine's after all.
	w.dead.Store(true)
	return "", false, nil
}

// decodeAnswer decodes the JSON of the engine's answer to body into v.
func decodeAnswer(body, txt string, v any) error {
	if err := json.Unmarshal([]byte(txt), v); err != nil {
		op, _, _ := strings.Cut(body, " ")
		return fmt.Errorf("playwright: engine answer for %q: %w", op, err)
	}
	return nil
}

// install loads the engine into Playwright's isolated world of the main
// frame's current document and publishes its direct read there, one
// install at a time per tab: a read that comes meanwhile waits for it and
// uses its world. It returns nil where the world cannot be used now (none
// found, the document went, ctx ended); the read then goes the locator
// way, and a world found unusable is not tried again in its document.
func (t *tab) install(ctx context.Context) *world {
	t.installing.Lock()
	defer t.installing.Unlock()
	doc := t.docs.Load()
	if w := t.world.Load(); w != nil && w.doc == doc {
		return w
	}
	if t.closed.Load() || ctx.Err() != nil {
		return nil
	}
	w := &world{doc: doc}
	id, ok := t.load(ctx)
	switch {
	case ctx.Err() != nil:
		return nil // the caller's time ran out, which says nothing of the world
	case !ok:
		w.dead.Store(true) // none, the document went, or the engine would not load there
	default:
		w.id = id
	}
	if t.docs.Load() != doc {
		return nil
	}
	t.world.Store(w)
	if w.dead.Load() {
		return nil
	}
	return w
}

// load finds Playwright's isolated world of the main frame's document and
// loads the engine there: its execution context, and whether it answered.
func (t *tab) load(ctx context.Context) (int, bool) {
	c, cancel := context.WithTimeout(ctx, underLoad(readWait))
	defer cancel()
	id, err := t.utilityContext(c)
	s := t.session()
	if err != nil || id == 0 || s == nil {
		return 0, false
	}
	v, err := call(c, func() (any, error) {
		return send(s, cdp.Evaluate{Expression: t.b.installExpr(), ContextID: id, ReturnByValue: true})
	})
	if m, _ := v.(map[string]any); err != nil || m["exceptionDetails"] != nil || resultValue(v) != true {
		return 0, false
	}
	return id, true
}

// installExpr loads the engine (the one registered with Playwright, with
// this browser's field rules) into the world it is evaluated in, or finds
// it there, and has it publish its direct read; its value is true.
func (b *browser) installExpr() string {
	b.engineOnce.Do(func() {
		b.engine = "(() => { const e = " + walker.Source(b.cfg.FieldRules) + "; e.queryAll(document, 'nav'); return true; })()"
	})
	return b.engine
}

// utilityContext asks a DevTools session of its own for the page's
// execution contexts and picks Playwright's isolated world in the main
// frame, the newest when there are several (documents the back-forward
// cache keeps have theirs too; the engine's read in a document put away
// answers false). The session is dropped after: enabling Runtime on the
// tab's own session would send it every console line of the page from then
// on.
func (t *tab) utilityContext(ctx context.Context) (int, error) {
	t.mu.Lock()
	main := t.mainFrame
	t.mu.Unlock()
	if main == "" {
		return 0, nil
	}
	s, err := call(ctx, func() (pw.CDPSession, error) { return t.b.bctx.NewCDPSession(t.page) })
	if err != nil {
		return 0, err
	}
	defer func() { go func() { _ = s.Detach() }() }()
	var mu sync.Mutex
	newest := 0
	s.On("Runtime.executionContextCreated", func(ev map[string]any) {
		c, _ := ev["context"].(map[string]any)
		name, _ := c["name"].(string)
		aux, _ := c["auxData"].(map[string]any)
		frame, _ := aux["frameId"].(string)
		id, _ := c["id"].(float64)
		if frame == main && strings.HasPrefix(name, utilityWorld) {
			mu.Lock()
			newest = max(newest, int(id))
			mu.Unlock()
		}
	})
	// The contexts there now are reported before Runtime.enable answers.
	if _, err := call(ctx, func() (any, error) { return send(s, cdp.RuntimeEnable{}) }); err != nil {
		return 0, err
	}
	mu.Lock()
	defer mu.Unlock()
	return newest, nil
}

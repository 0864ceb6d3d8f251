package extension

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
)

// Tabs is one conversation's tab group.
type Tabs struct {
	d    *Driver
	conv string

	mu      sync.Mutex
	active  int          // the Chrome tab id observations read
	pages   map[int]page // the group's tabs buddi knows of
	nextRef int          // the next ref number never given in this conversation
	closed  bool
	cancel  context.CancelFunc // the call in flight, for Interrupt
}

// page is what buddi keeps of one tab: the URL its refs were read from,
// how it was last read (a semantic target's tree is read so again), what
// the latest observation read of each ref it showed, and its frames:
// which frame each of its framed refs was read in, and the frames'
// numbers.
type page struct {
	observed string
	seen     readArgs
	seenIn   string // the frame the latest observation read first ("" for the page)
	infos    map[string]elemInfo
	frames   framing
}

// seenOf is what buddi keeps of tab (nothing yet, for a tab never read).
func (ts *Tabs) seenOf(tab int) page {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.pages[tab]
}

var _ drivers.Tabs = (*Tabs)(nil)

// begin starts a call that Interrupt can abandon.
func (ts *Tabs) begin(ctx context.Context) (context.Context, func(), error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.closed {
		return nil, nil, fail(drivers.CodeTabGone, nil, "This conversation's tabs are closed.")
	}
	ctx, cancel := context.WithCancel(ctx)
	ts.cancel = cancel
	return ctx, func() {
		cancel()
		ts.mu.Lock()
		ts.cancel = nil
		ts.mu.Unlock()
	}, nil
}

// interrupted maps a call the owner abandoned to its code.
func interrupted(ctx context.Context, err error) error {
	if err != nil && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fail(drivers.CodeInterrupted, err, "The owner took over the page, so buddi stopped what it was doing there.")
	}
	return err
}

// Interrupt abandons the call in flight and stops a pending load; the tab
// is left as it is.
func (ts *Tabs) Interrupt() {
	ts.mu.Lock()
	cancel, tab, closed := ts.cancel, ts.active, ts.closed
	ts.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if closed {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ts.cdp(ctx, tab, cdp.StopLoading{}, false, nil)
	}()
}

// afterDrop handles err: when the extension let go of the conversation's
// group (its connection dropped since), buddi forgets the tabs and refs
// too and starts the conversation again in a new group with a blank tab,
// and the agent is told to navigate again.
func (ts *Tabs) afterDrop(ctx context.Context, err error) error {
	if drivers.CodeOf(err) != groupGone {
		return err
	}
	var ans struct {
		Tabs []chromeTab `json:"tabs"`
	}
	if e := ts.d.call(ctx, "open", map[string]any{"conv": ts.conv}, &ans); e != nil || len(ans.Tabs) == 0 {
		return fail(drivers.CodeTabGone, e, "The connection to your browser dropped, so buddi let go of this conversation's tabs (they are the owner's now), and no new tab could be opened; observe again once your browser is back.")
	}
	ts.mu.Lock()
	ts.pages, ts.active = map[int]page{}, ans.Tabs[0].ID
	for _, t := range ans.Tabs {
		ts.pages[t.ID] = page{}
	}
	ts.mu.Unlock()
	return fail(drivers.CodeTabGone, nil, "The connection to your browser dropped, so buddi let go of this conversation's tabs (they are the owner's now); a new blank tab is open: navigate again.")
}

// Close closes the group's tabs; the other conversations keep theirs.
func (ts *Tabs) Close(ctx context.Context) error {
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		return nil
	}
	ts.closed = true
	if ts.cancel != nil {
		ts.cancel()
	}
	ts.mu.Unlock()
	ts.d.forget(ts)
	err := ts.d.call(ctx, "close", map[string]any{"conv": ts.conv}, nil)
	if c := drivers.CodeOf(err); c == drivers.CodeTabGone || c == groupGone {
		return nil // buddi had already let go of them
	}
	return err
}

func (ts *Tabs) current() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.active
}

// setObserved records that the tab was read, at url, with args, starting
// in the document in, what the read showed of each ref (infos), and what
// it learned of its frames.
func (ts *Tabs) setObserved(in at, url string, args readArgs, infos map[string]elemInfo, fr framing) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.pages[in.tab] = page{observed: url, seen: args, seenIn: in.frame, infos: infos, frames: fr}
}

// cdp sends one debugger command to tab; input marks a command the
// extension refuses while the owner looks at the tab.
func (ts *Tabs) cdp(ctx context.Context, tab int, c cdp.Command, input bool, out any) error {
	return ts.d.call(ctx, "cdp", map[string]any{"conv": ts.conv, "tab": tab, "method": c.Method(), "params": c, "input": input}, out)
}

// input sends one input command to the document in: the tab's page, or
// a frame that runs in a process of its own, in its coordinates.
func (ts *Tabs) input(ctx context.Context, in at, c cdp.Command) error {
	p := in.params(ts.conv)
	p["method"], p["params"], p["input"] = c.Method(), c, true
	return frameLost(ts.d.call(ctx, "cdp", p, nil))
}

// inputFirst is input for the first event of an action that may open a
// tab: it also returns the tabs of the group as they were just before the
// event (nil from a build of the extension that does not say).
func (ts *Tabs) inputFirst(ctx context.Context, in at, c cdp.Command) ([]int, error) {
	p := in.params(ts.conv)
	p["method"], p["params"], p["input"], p["opened"] = c.Method(), c, true, true
	var ans struct {
		Opened []int `json:"opened"`
	}
	return ans.Opened, frameLost(ts.d.call(ctx, "cdp", p, &ans))
}

// evalOpened runs expr, input, in the document in as evalIn does, and
// returns the tabs of the group as they were just before it ran (nil from
// a build of the extension that does not say).
func (ts *Tabs) evalOpened(ctx context.Context, in at, expr string, out any) ([]int, error) {
	p := in.params(ts.conv)
	p["expr"], p["input"], p["opened"] = expr, true, true
	var ans struct {
		Opened []int           `json:"opened"`
		Value  json.RawMessage `json:"value"`
	}
	if err := ts.d.call(ctx, "eval", p, &ans); err != nil {
		return nil, frameLost(err)
	}
	return ans.Opened, json.Unmarshal(ans.Value, out)
}

// eval runs expr in the engine's isolated world of tab's page and
// decodes its value into out.
func (ts *Tabs) eval(ctx context.Context, tab int, expr string, input bool, out any) error {
	_, err := ts.evalIn(ctx, at{tab: tab}, expr, input, out)
	return err
}

// evalIn runs expr in the engine's isolated world of the document in and
// decodes its value into out. It returns the address of the tab's page as
// Chrome has it.
func (ts *Tabs) evalIn(ctx context.Context, in at, expr string, input bool, out any) (string, error) {
	ans, err := ts.evalHeld(ctx, in, expr, "", "", input, out)
	return ans.URL, err
}

// evaluated is what an eval says besides the expression's value: the
// address of the tab's page, the frames the held elements hold, and what
// the call in each of those frames gave.
type evaluated struct {
	URL  string        `json:"url"`
	Held []string      `json:"held"`
	Each []*eachResult `json:"each"`
}

// eachResult is what a call in one frame gave (nil: no frame there).
type eachResult struct {
	Value json.RawMessage `json:"value"`
	Error string          `json:"error"`
}

// evalHeld is evalIn, and when held (an expression naming an array of
// elements, run after expr) is set, it also learns which frame each of
// those elements holds ("" for none), and with each (a function's
// source) calls that in each of those frames in turn, the first given
// expr's value and every later one what the one before gave: all in the
// same call.
func (ts *Tabs) evalHeld(ctx context.Context, in at, expr, held, each string, input bool, out any) (evaluated, error) {
	var ans struct {
		evaluated
		Value json.RawMessage `json:"value"`
	}
	p := in.params(ts.conv)
	p["expr"], p["input"] = expr, input
	if held != "" {
		p["held"] = held
	}
	if each != "" {
		p["each"] = each
	}
	if err := ts.d.call(ctx, "eval", p, &ans); err != nil {
		return ans.evaluated, frameLost(err)
	}
	if out == nil || len(ans.Value) == 0 {
		return ans.evaluated, nil
	}
	return ans.evaluated, json.Unmarshal(ans.Value, out)
}

// probe runs one engine op (drivers/walker's ops.js) in tab's page; see
// probeIn.
func (ts *Tabs) probe(ctx context.Context, tab int, body string, input bool, out any) error {
	_, err := ts.probeIn(ctx, at{tab: tab}, body, input, out)
	return err
}

// probeIn runs one engine op that answers with a carrier, in the document
// in, and decodes the carrier's JSON into out. It returns the address of
// the tab's page.
func (ts *Tabs) probeIn(ctx context.Context, in at, body string, input bool, out any) (string, error) {
	var text string
	pageURL, err := ts.evalIn(ctx, in, probeOf(body), input, &text)
	if err != nil {
		return "", err
	}
	return pageURL, json.Unmarshal([]byte(text), out)
}

// probeOf is the expression that runs the engine op body and answers its
// carrier's JSON text.
func probeOf(body string) string {
	q, _ := json.Marshal(body)
	return "__buddi.queryAll(document, " + string(q) + ")[0].textContent"
}

// tabState is where a tab is, as Chrome knows it.
type tabState struct {
	chromeTab
	Status string `json:"status"` // "loading" or "complete"
}

func (ts *Tabs) info(ctx context.Context, tab int) (*tabState, error) {
	var st tabState
	if err := ts.d.call(ctx, "info", map[string]any{"conv": ts.conv, "tab": tab}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

// list is the group's tabs as the contract names them, the active one marked.
func (ts *Tabs) list(ctx context.Context) ([]drivers.TabInfo, error) {
	var ans struct {
		Tabs []chromeTab `json:"tabs"`
	}
	if err := ts.d.call(ctx, "tabs", map[string]any{"conv": ts.conv}, &ans); err != nil {
		return nil, err
	}
	active := ts.current()
	out := make([]drivers.TabInfo, 0, len(ans.Tabs))
	for _, t := range ans.Tabs {
		out = append(out, drivers.TabInfo{ID: tabID(t.ID), URL: t.URL, Title: t.Title, Active: t.ID == active})
	}
	return out, nil
}

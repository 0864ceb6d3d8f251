package extension

import (
	"context"
	"errors"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/messages"
)

// Bounds of actions, the Playwright driver's.
const (
	navTimeout  = 15 * time.Second
	waitDefault = 5 * time.Second
	waitMax     = 15 * time.Second
	navStart    = 80 * time.Millisecond // how long input may take to start a load (the Playwright driver waits as long)
	pollEvery   = 100 * time.Millisecond
)

// Do performs one action on the conversation's tabs.
func (ts *Tabs) Do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a == nil {
		return nil, badInput("No action was given.")
	}
	ctx, end, err := ts.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer end()
	out, err := drivers.Dispatch(ctx, acting{ts}, a)
	if err != nil {
		return nil, ts.afterDrop(ctx, interrupted(ctx, err))
	}
	out.Bound()
	return out, nil
}

// acting is the conversation's tabs as the dispatcher drives them, inside
// Do's bounds: its methods are the actions.
type acting struct{ *Tabs }

var _ drivers.Actions = acting{}

// onElement resolves a's target and performs f on the checked element.
func (ts acting) onElement(ctx context.Context, a *drivers.Action, f func(*resolved) (*drivers.Outcome, error)) (*drivers.Outcome, error) {
	if a.Point != nil {
		return nil, badInput("Your browser takes refs, not points: observe and name the element by its ref.")
	}
	r, err := ts.resolve(ctx, a.Target)
	if err != nil {
		return nil, err
	}
	return f(r)
}

// quickly performs f on a's target resolved from its observation
// (quick), checked by the call that acts, and the long way when that
// finds the element not as observed, or cannot be tried.
func (ts acting) quickly(ctx context.Context, a *drivers.Action, f func(*resolved) (*drivers.Outcome, error)) (*drivers.Outcome, error) {
	if r := ts.quick(a.Target); r != nil && a.Point == nil {
		if out, err := f(r); !errors.Is(err, errRecheck) {
			return out, err
		}
	}
	return ts.onElement(ctx, a, f)
}

func (ts acting) Click(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.quickly(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.click(ctx) })
}

func (ts acting) Fill(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.quickly(ctx, a, func(r *resolved) (*drivers.Outcome, error) {
		return r.fill(ctx, a.Value, walker.SecretOrigins(a))
	})
}

func (ts acting) Select(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onElement(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.selectOptions(ctx, a.Values) })
}

func (ts acting) Hover(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onElement(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.hover(ctx) })
}

func (ts acting) Submit(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.onElement(ctx, a, func(r *resolved) (*drivers.Outcome, error) { return r.submit(ctx) })
}

func (ts acting) Press(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.press(ctx, a)
}

func (ts acting) Scroll(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.scroll(ctx, a)
}

func (ts acting) Tab(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.tabOp(ctx, a)
}

func (ts acting) Navigate(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.navigate(ctx, a)
}

func (ts acting) History(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.history(ctx, a)
}

func (ts acting) WaitFor(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.waitFor(ctx, a)
}

func (ts acting) DOM(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.dom(ctx, a)
}

func (acting) Console(context.Context, *drivers.Action) (*drivers.Outcome, error) {
	return nil, fail(messages.CodeUnsupported, nil, "Your browser does not give buddi the page's console; observe or read the dom instead.")
}

func (ts acting) Screenshot(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return ts.screenshot(ctx, a)
}

// checkURL asks the owner's URL rules about raw.
func (ts *Tabs) checkURL(raw string) error {
	if ts.d.cfg.CheckURL == nil || raw == "" || raw == "about:blank" {
		return nil
	}
	if err := ts.d.cfg.CheckURL(raw); err != nil {
		return refusal(err)
	}
	return nil
}

func (ts *Tabs) checkField(f Field, value string) error {
	if ts.d.cfg.CheckField == nil {
		return nil
	}
	if err := ts.d.cfg.CheckField(f, value); err != nil {
		return refusal(err)
	}
	return nil
}

func (ts *Tabs) navigate(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a.URL == "" {
		return nil, badInput("navigate needs a url.")
	}
	if err := ts.checkURL(a.URL); err != nil {
		return nil, err
	}
	tab := ts.current()
	var ans struct {
		ErrorText string `json:"errorText"`
	}
	if err := ts.cdp(ctx, tab, cdp.Navigate{URL: a.URL}, false, &ans); err != nil {
		return nil, err
	}
	if ans.ErrorText != "" {
		return nil, fail(drivers.CodeNavFailed, nil, "The page did not load ("+ans.ErrorText+"); check the address, or try again later.")
	}
	return ts.loaded(ctx, tab, a.TimeoutOr(navTimeout, navTimeout))
}

// loaded waits for tab's load within d and answers where it landed.
func (ts *Tabs) loaded(ctx context.Context, tab int, d time.Duration) (*drivers.Outcome, error) {
	st, done, err := ts.waitLoad(ctx, tab, d)
	if err != nil {
		return nil, err
	}
	if err := ts.landed(ctx, tab, st.URL); err != nil {
		return nil, err
	}
	out := &drivers.Outcome{Result: drivers.Loaded, URL: st.URL, Title: st.Title, Changed: true}
	if !done {
		out.Result = drivers.LoadPending
	}
	return out, nil
}

// waitLoad polls tab until its load completes or d passes (done false).
func (ts *Tabs) waitLoad(ctx context.Context, tab int, d time.Duration) (*tabState, bool, error) {
	deadline := time.Now().Add(d)
	for {
		st, err := ts.info(ctx, tab)
		if err != nil {
			return nil, false, err
		}
		if st.Status == "complete" || time.Now().After(deadline) {
			return st, st.Status == "complete", nil
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return nil, false, err
		}
	}
}

// landed checks the document the tab reached; one the rules refuse is
// left for a blank page, so the agent never reads it.
func (ts *Tabs) landed(ctx context.Context, tab int, url string) error {
	err := ts.checkURL(url)
	if err == nil {
		return nil
	}
	if f := ts.d.cfg.OnRefused; f != nil {
		f(ts.conv, url, err)
	}
	_ = ts.cdp(ctx, tab, cdp.Navigate{URL: "about:blank"}, false, nil)
	return err
}

func (ts *Tabs) history(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	tab := ts.current()
	var h struct {
		CurrentIndex int `json:"currentIndex"`
		Entries      []struct {
			ID  int    `json:"id"`
			URL string `json:"url"`
		} `json:"entries"`
	}
	if err := ts.cdp(ctx, tab, cdp.NavigationHistory{}, false, &h); err != nil {
		return nil, err
	}
	i := h.CurrentIndex - 1
	if a.Kind == drivers.Forward {
		i = h.CurrentIndex + 1
	}
	if i < 0 || i >= len(h.Entries) {
		st, err := ts.info(ctx, tab)
		if err != nil {
			return nil, err
		}
		return &drivers.Outcome{Result: drivers.SamePage, URL: st.URL, Title: st.Title}, nil
	}
	if err := ts.checkURL(h.Entries[i].URL); err != nil {
		return nil, err
	}
	if err := ts.cdp(ctx, tab, cdp.NavigateToHistoryEntry{EntryID: h.Entries[i].ID}, false, nil); err != nil {
		return nil, err
	}
	if err := sleep(ctx, navStart); err != nil {
		return nil, err
	}
	return ts.loaded(ctx, tab, a.TimeoutOr(navTimeout, navTimeout))
}

func (ts *Tabs) dom(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	var ans walker.DOMAnswer
	tab := ts.current()
	if err := ts.probe(ctx, tab, walker.DOMOp(a), false, &ans); err != nil {
		return nil, err
	}
	text, err := ans.Read(a)
	if err != nil {
		return nil, err
	}
	st, err := ts.info(ctx, tab)
	if err != nil {
		return nil, err
	}
	return &drivers.Outcome{Result: drivers.Done, Text: text, URL: st.URL, Title: st.Title}, nil
}

// settled answers an input on tab: where the page went, waiting for a
// load the input started; the tab it opened (popup: group is the group's
// tabs before it, nil when not known); same_page, as in the other drivers,
// when it stayed.
func (ts *Tabs) settled(ctx context.Context, tab int, before string, group []int) (*drivers.Outcome, error) {
	if err := sleep(ctx, navStart); err != nil {
		return nil, err
	}
	st, opened, err := ts.infoOpened(ctx, tab)
	if err != nil {
		return nil, err
	}
	if id := newPopup(group, opened); id != 0 {
		return ts.popup(ctx, tab, id)
	}
	if st.Status != "complete" || st.URL != before {
		out, err := ts.loaded(ctx, tab, navTimeout)
		if err != nil {
			return nil, err
		}
		if out.URL != before {
			out.Result = drivers.Navigated
		}
		return out, nil
	}
	return &drivers.Outcome{Result: drivers.SamePage, URL: st.URL, Title: st.Title}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

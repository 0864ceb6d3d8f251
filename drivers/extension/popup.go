package extension

import (
	"context"
	"slices"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// A tab the page opens (a link to a new tab, window.open) joins its
// opener's group in Chrome, so it is the conversation's from the start.
// The input that opened it answers with it, as the Playwright driver
// does: the input's first event asks the extension for the group's tabs
// just before it is sent, and the read that follows the input asks again;
// a tab in the second list and not in the first is the input's popup. It
// becomes the active tab, and the answer is navigated, where its load
// took it, with the conversation's tabs. A build of the extension that
// does not list them (no opened) leaves the input answered from the
// opener, as before.

// popupBlankWait bounds how long a popup may stay blank before its
// address is taken as it is (window.open with no address stays blank).
const popupBlankWait = time.Second

// afterState is the read that follows an input in the top document of a
// tab: its navigation mark and title (afterInput), the tab's address, and
// the tabs of its group it opened.
type afterState struct {
	Nav    string
	Title  string
	URL    string
	Opened []int
}

// afterRead reads tab's afterState.
func (ts *Tabs) afterRead(ctx context.Context, tab int) (afterState, error) {
	var ans struct {
		URL   string `json:"url"`
		Value struct {
			Nav   string `json:"nav"`
			Title string `json:"title"`
		} `json:"value"`
		Opened []int `json:"opened"`
	}
	p := at{tab: tab}.params(ts.conv)
	p["expr"], p["opened"] = afterInput, true
	if err := ts.d.call(ctx, "eval", p, &ans); err != nil {
		return afterState{}, err
	}
	return afterState{Nav: ans.Value.Nav, Title: messages.Clip(ans.Value.Title, drivers.MaxTitle), URL: ans.URL, Opened: ans.Opened}, nil
}

// infoOpened is info, with the tabs of tab's group it opened.
func (ts *Tabs) infoOpened(ctx context.Context, tab int) (*tabState, []int, error) {
	var ans struct {
		tabState
		Opened []int `json:"opened"`
	}
	if err := ts.d.call(ctx, "info", map[string]any{"conv": ts.conv, "tab": tab, "opened": true}, &ans); err != nil {
		return nil, nil, err
	}
	return &ans.tabState, ans.Opened, nil
}

// newPopup is the latest tab of the group after an input (after) that was
// not in it just before (before); 0 for none, and when the extension did
// not say what was there before (nil: a build without opened).
func newPopup(before, after []int) int {
	if before == nil {
		return 0
	}
	found := 0
	for _, id := range after {
		if !slices.Contains(before, id) && id > found {
			found = id
		}
	}
	return found
}

// popup takes the tab an input on opener opened as the conversation's
// active tab, in the background of the owner's window (keep), and answers
// the input with it. A popup whose address the owner's rules refuse is
// closed, and the opener stays active.
func (ts *Tabs) popup(ctx context.Context, opener, id int) (*drivers.Outcome, error) {
	ts.mu.Lock()
	ts.pages[id], ts.active = page{}, id
	ts.mu.Unlock()
	err := ts.d.call(ctx, "keep", map[string]any{"conv": ts.conv, "tab": id}, nil)
	if drivers.CodeOf(err) == messages.CodeUnsupported {
		err = nil // a build without keep: the popup stays where Chrome put it
	}
	var st *tabState
	var done bool
	if err == nil {
		st, done, err = ts.popupLoad(ctx, id, navTimeout)
	}
	if err == nil {
		err = ts.landed(ctx, id, st.URL)
	}
	if err != nil {
		if c := drivers.CodeOf(err); c != drivers.CodeTabGone && c != drivers.CodeInterrupted {
			_ = ts.d.call(ctx, "close", map[string]any{"conv": ts.conv, "tab": id}, nil)
		}
		ts.mu.Lock()
		delete(ts.pages, id)
		ts.active = opener
		ts.mu.Unlock()
		return nil, err
	}
	out := &drivers.Outcome{Result: drivers.Navigated, URL: st.URL, Title: st.Title, Changed: true}
	if !done {
		out.Result = drivers.LoadPending
	}
	if out.Tabs, err = ts.list(ctx); err != nil {
		return nil, err
	}
	return out, nil
}

// popupLoad waits, within d, for the popup's load; a popup still blank
// after popupBlankWait is taken as it is.
func (ts *Tabs) popupLoad(ctx context.Context, id int, d time.Duration) (*tabState, bool, error) {
	start := time.Now()
	for {
		st, done, err := ts.waitLoad(ctx, id, d-time.Since(start))
		if err != nil || !done || !blank(st.URL) || time.Since(start) > popupBlankWait {
			return st, done, err
		}
		if err := sleep(ctx, pollEvery); err != nil {
			return nil, false, err
		}
	}
}

func blank(u string) bool { return u == "" || u == "about:blank" }

package sim

import (
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages/handwire"
)

var _ drivers.Tabs = (*Tabs)(nil)

// Tabs is one conversation's tabs. An idle Tabs holds one tab and a few
// pointers; pages are the driver's shared templates.
type Tabs struct {
	d    *Driver
	conv string

	mu      sync.Mutex
	dice    *rand.Rand // fault draws; nil without faults
	tabs    []*tab
	active  *tab // nil once the active tab closed
	lastID  int
	intr    chan struct{} // closed by Interrupt and Close; made by the next call
	done    chan struct{} // closed by Close; made by Frames
	changed chan struct{} // closed when a page changes; made by wait_for
	closed  bool
	counts  Counts
	console []string
	hands   []handwire.Input // what pins received (pin.go)
	fits    [][2]int         // the sizes pins laid the page out at (pin.go)
	casts   int              // screencasts pins were asked to start (pin.go)
}

func newTabs(d *Driver, conversation string) *Tabs {
	t := &Tabs{d: d, conv: conversation, dice: newDice(d.cfg, conversation)}
	t.active = t.newTab()
	return t
}

// Conversation is the name the tabs were opened under.
func (t *Tabs) Conversation() string { return t.conv }

// Inputs is the input dispatched to this conversation's pages so far.
func (t *Tabs) Inputs() Counts {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.counts
}

// Interrupt abandons calls in flight: each returns code interrupted and any
// navigation it was waiting on does not commit. A load left pending by an
// earlier navigate stops where it is.
func (t *Tabs) Interrupt() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.interrupt()
}

func (t *Tabs) interrupt() {
	if t.intr != nil {
		close(t.intr)
		t.intr = nil
	}
	for _, tb := range t.tabs {
		tb.loading = noLoad
	}
	t.touch()
}

// Close interrupts calls in flight and forgets the conversation's tabs;
// Open then starts afresh with one blank tab.
func (t *Tabs) Close(context.Context) error {
	t.shut()
	return nil
}

func (t *Tabs) shut() {
	t.mu.Lock()
	if !t.closed {
		t.closed = true
		t.interrupt()
		if t.done != nil {
			close(t.done)
		}
		t.tabs, t.active, t.console = nil, nil, nil
	}
	t.mu.Unlock()
	t.d.forget(t)
}

// begin starts a call: it fails on a finished context or closed tabs and
// returns the channel Interrupt closes.
func (t *Tabs) begin(ctx context.Context) (<-chan struct{}, error) {
	if err := ctx.Err(); err != nil {
		return nil, errContext(err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errClosed()
	}
	if t.intr == nil {
		t.intr = make(chan struct{})
	}
	return t.intr, nil
}

// activeTab is the tab a call acts on, after the TabGone fault had its
// chance. The caller holds t.mu.
func (t *Tabs) activeTab() (*tab, error) {
	switch {
	case t.closed:
		return nil, errClosed()
	case t.active == nil:
		return nil, errTabGone()
	case t.roll(t.d.faults().TabGone):
		t.closeTab(t.active)
		return nil, errTabGone()
	}
	return t.active, nil
}

func (t *Tabs) newTab() *tab {
	t.lastID++
	tb := &tab{id: "t" + strconv.Itoa(t.lastID), hist: []*page{blank}}
	t.tabs = append(t.tabs, tb)
	return tb
}

func (t *Tabs) closeTab(tb *tab) {
	for i, x := range t.tabs {
		if x == tb {
			t.tabs = slices.Delete(t.tabs, i, i+1)
			break
		}
	}
	if t.active == tb {
		t.active = nil
	}
	t.touch()
}

func (t *Tabs) find(id string) *tab {
	for _, tb := range t.tabs {
		if tb.id == id {
			return tb
		}
	}
	return nil
}

func (t *Tabs) infos() []drivers.TabInfo {
	out := make([]drivers.TabInfo, len(t.tabs))
	for i, tb := range t.tabs {
		p := tb.page()
		out[i] = drivers.TabInfo{ID: tb.id, URL: p.url, Title: p.title, Active: tb == t.active}
	}
	return out
}

// touch wakes wait_for calls after a change. The caller holds t.mu.
func (t *Tabs) touch() {
	if t.changed != nil {
		close(t.changed)
		t.changed = nil
	}
}

// dispatch records one input. The caller holds t.mu and calls t.report
// after unlocking.
func (t *Tabs) dispatch(k drivers.Kind, submitted bool) {
	t.counts.add(k)
	if submitted {
		t.counts.Submissions++
	}
	t.d.input(k, submitted)
}

// report tells Config.OnInput about a dispatched input. No lock is held.
func (t *Tabs) report(k drivers.Kind) {
	if f := t.d.cfg.OnInput; f != nil {
		f(t.conv, k)
	}
}

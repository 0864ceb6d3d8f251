package extension

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/messages"
)

// engineMissing is the extension's answer when its worker was restarted
// and lost the engine buddi gave it: the driver sends it again.
const engineMissing messages.Code = "engine_missing"

// groupGone is the extension's answer for a conversation whose tab group
// it let go of when its connection dropped: the tabs are the owner's now.
const groupGone messages.Code = "group_gone"

// Driver is Your browser's driver: each conversation's tabs are one tab
// group in the owner's Chrome.
type Driver struct {
	cfg    Config
	engine string

	mu    sync.Mutex
	setUp bool
	convs map[string]*Tabs
}

var _ drivers.Driver = (*Driver)(nil)

// New returns a driver sending its commands through cfg.Caller.
func New(cfg Config) *Driver {
	return &Driver{cfg: cfg, engine: walker.Source(cfg.FieldRules), convs: map[string]*Tabs{}}
}

// Offline says the extension is not connected now, when the Caller knows.
func (d *Driver) Offline() bool {
	c, ok := d.cfg.Caller.(Connection)
	return ok && !c.Online()
}

var _ drivers.Offline = (*Driver)(nil)

// Status asks the extension how it is.
func (d *Driver) Status(ctx context.Context) drivers.Status { return status(ctx, d.cfg.Caller) }

// Open returns the conversation's tabs: its group in Chrome, made with
// one background tab the first time.
func (d *Driver) Open(ctx context.Context, conversation string) (drivers.Tabs, error) {
	if conversation == "" {
		return nil, badInput("Open needs a conversation.")
	}
	d.mu.Lock()
	if ts := d.convs[conversation]; ts != nil {
		d.mu.Unlock()
		return ts, nil
	}
	d.mu.Unlock()
	var ans struct {
		Tabs []chromeTab `json:"tabs"`
	}
	if err := d.call(ctx, "open", map[string]any{"conv": conversation}, &ans); err != nil {
		return nil, err
	}
	if len(ans.Tabs) == 0 {
		return nil, fail(drivers.CodeNoBrowser, nil, "Your browser opened no tab for the conversation; check the buddi extension in Chrome.")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if ts := d.convs[conversation]; ts != nil {
		return ts, nil
	}
	ts := &Tabs{d: d, conv: conversation, active: ans.Tabs[0].ID, pages: map[int]page{}, nextRef: 1}
	for _, t := range ans.Tabs {
		ts.pages[t.ID] = page{}
	}
	d.convs[conversation] = ts
	return ts, nil
}

// Close closes every conversation's tabs.
func (d *Driver) Close() error {
	d.mu.Lock()
	all := make([]*Tabs, 0, len(d.convs))
	for _, ts := range d.convs {
		all = append(all, ts)
	}
	d.mu.Unlock()
	var first error
	for _, ts := range all {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := ts.Close(ctx); err != nil && first == nil {
			first = err
		}
		cancel()
	}
	return first
}

func (d *Driver) forget(ts *Tabs) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.convs[ts.conv] == ts {
		delete(d.convs, ts.conv)
	}
}

// call sends one command and decodes its result into out (nil: ignored).
// An extension that lost the engine is given it again, once.
func (d *Driver) call(ctx context.Context, method string, params any, out any) error {
	if err := d.setup(ctx, false); err != nil {
		return err
	}
	raw, e := d.cfg.Caller.Call(ctx, method, params)
	if e != nil && e.Code == engineMissing {
		if err := d.setup(ctx, true); err != nil {
			return err
		}
		raw, e = d.cfg.Caller.Call(ctx, method, params)
	}
	if e != nil {
		return fromExtension(e)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fail(drivers.CodeNotAnswering, err, fmt.Sprintf("The extension answered %s with something buddi cannot read; update the extension.", method))
	}
	return nil
}

// setup gives the extension the page engine, once (again when asked).
func (d *Driver) setup(ctx context.Context, again bool) error {
	d.mu.Lock()
	done := d.setUp && !again
	d.mu.Unlock()
	if done {
		return nil
	}
	if _, e := d.cfg.Caller.Call(ctx, "setup", map[string]string{"engine": d.engine}); e != nil {
		return fromExtension(e)
	}
	d.mu.Lock()
	d.setUp = true
	d.mu.Unlock()
	return nil
}

// chromeTab is a tab as the extension describes it.
type chromeTab struct {
	ID    int    `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

func tabID(id int) string { return "t" + strconv.Itoa(id) }

func parseTab(s string) (int, bool) {
	if len(s) < 2 || s[0] != 't' {
		return 0, false
	}
	n, err := strconv.Atoi(s[1:])
	return n, err == nil
}

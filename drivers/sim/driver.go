package sim

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/buddi-dev/buddi/drivers"
)

var _ drivers.Driver = (*Driver)(nil)

// Driver serves the simulated site to many conversations.
type Driver struct {
	cfg    Config
	sites  sites
	fault  atomic.Pointer[Faults]
	totals totals

	mu      sync.Mutex
	convs   map[string]*Tabs
	running bool
}

// New returns a driver for cfg; zero fields take their defaults.
func New(cfg Config) *Driver {
	cfg = cfg.withDefaults()
	return newDriver(cfg, newSites(cfg))
}

// newDriver returns a driver for cfg (with its defaults) serving the page
// templates of all, which other drivers of a Mode may share.
func newDriver(cfg Config, all sites) *Driver {
	d := &Driver{cfg: cfg, sites: all, convs: make(map[string]*Tabs)}
	d.SetFaults(cfg.Faults)
	return d
}

// Status reports the simulation: always found and headless, running once a
// conversation has opened.
func (d *Driver) Status(context.Context) drivers.Status {
	d.mu.Lock()
	defer d.mu.Unlock()
	return drivers.Status{Driver: "sim", Browser: Origin, Found: true, Headless: true, Running: d.running}
}

// Open returns the conversation's tabs, creating them with one blank tab.
func (d *Driver) Open(ctx context.Context, conversation string) (drivers.Tabs, error) {
	if err := ctx.Err(); err != nil {
		return nil, errContext(err)
	}
	if conversation == "" {
		return nil, errBadInput("Name the conversation whose tabs to open.")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.running = true
	if t, ok := d.convs[conversation]; ok {
		return t, nil
	}
	t := newTabs(d, conversation)
	d.convs[conversation] = t
	return t, nil
}

// Conversation returns the open tabs of a conversation, or nil.
func (d *Driver) Conversation(name string) *Tabs {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.convs[name]
}

// Stats is the input dispatched by every conversation since New, closed
// conversations included.
func (d *Driver) Stats() Counts { return d.totals.load() }

// Close closes every conversation's tabs. Open works again afterwards.
func (d *Driver) Close() error {
	d.mu.Lock()
	all := make([]*Tabs, 0, len(d.convs))
	for _, t := range d.convs {
		all = append(all, t)
	}
	d.running = false
	d.mu.Unlock()
	for _, t := range all {
		t.shut()
	}
	return nil
}

// forget drops t from the map if it is still the conversation's tabs.
func (d *Driver) forget(t *Tabs) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.convs[t.conv] == t {
		delete(d.convs, t.conv)
	}
}

// input records one dispatched input, driver-wide.
func (d *Driver) input(k drivers.Kind, submitted bool) {
	d.totals.add(k)
	if submitted {
		d.totals.submissions.Add(1)
	}
}

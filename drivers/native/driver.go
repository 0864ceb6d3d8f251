package native

import (
	"context"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/native/protocol"
)

// Driver serves every conversation's hold on the computer through one
// helper executable.
type Driver struct {
	cfg    Config
	client *protocol.Client

	mu    sync.Mutex
	convs map[string]*Tabs
}

var (
	_ drivers.Driver    = (*Driver)(nil)
	_ drivers.AppDriver = (*Driver)(nil)
)

// OpensApps says every conversation's Tabs opens apps.
func (d *Driver) OpensApps() bool { return true }

// New returns a driver that runs cfg.Helper for each call; it starts
// nothing until a call.
func New(cfg Config) *Driver {
	return &Driver{cfg: cfg, client: cfg.client(), convs: map[string]*Tabs{}}
}

// Status asks the helper's probe, which never prompts.
func (d *Driver) Status(ctx context.Context) drivers.Status {
	st := drivers.Status{Driver: Name, Browser: d.cfg.Helper}
	p, err := d.client.Probe(ctx)
	switch {
	case err != nil:
		st.Problem = sentence(err)
	case !p.Ready:
		st.Problem = problem(p)
	default:
		st.Found, st.Running = true, true
	}
	return st
}

// problem is the first failed check's sentence.
func problem(p *protocol.Permissions) string {
	for _, c := range p.Checks {
		if !c.OK {
			return c.Detail
		}
	}
	return "The computer-control helper is not ready here."
}

// Open returns the conversation's hold, the same one until it closes.
func (d *Driver) Open(_ context.Context, conversation string) (drivers.Tabs, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if t := d.convs[conversation]; t != nil {
		return t, nil
	}
	t := &Tabs{d: d, conversation: conversation, inflight: map[*context.CancelFunc]struct{}{}}
	d.convs[conversation] = t
	return t, nil
}

func (d *Driver) forget(t *Tabs) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.convs[t.conversation] == t {
		delete(d.convs, t.conversation)
	}
}

// Close ends every conversation's hold on the driver; the apps stay as they
// are, and so does the desktop lock (a conversation gives it back only by
// releasing control or closing its own tabs).
func (d *Driver) Close() error {
	d.mu.Lock()
	all := make([]*Tabs, 0, len(d.convs))
	for _, t := range d.convs {
		all = append(all, t)
	}
	d.mu.Unlock()
	for _, t := range all {
		t.drop()
	}
	return nil
}

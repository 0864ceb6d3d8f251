package native

import (
	"context"
	"fmt"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/native/protocol"
)

// Tabs is one conversation's hold on the computer: the app it works in and
// its latest observation. It owns no window: Close forgets them and leaves
// every app and window open.
type Tabs struct {
	d            *Driver
	conversation string

	// ending is held (read) while a call takes the desktop lock and
	// registers for Interrupt, and (write) while the tabs close: a call
	// either took the lock before they closed, and is interrupted and its
	// lock given back, or finds them closed and takes nothing.
	ending sync.RWMutex

	mu          sync.Mutex
	app         string                // the selected app; the browser app until open
	last        *protocol.Observation // the latest observation, for pixel clicks and keys
	closed      bool
	inflight    map[*context.CancelFunc]struct{}
	interrupted bool
}

var (
	_ drivers.Tabs      = (*Tabs)(nil)
	_ drivers.AppOpener = (*Tabs)(nil)
)

func (t *Tabs) selected() (string, *protocol.Observation, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return "", nil, released()
	}
	app := t.app
	if app == "" {
		app = t.d.cfg.apps().Browser
	}
	return app, t.last, nil
}

// call runs f, holding the desktop lock, with a context Interrupt can
// cancel; it reports whether it was interrupted. A refused lock is returned
// as it is: nothing reached the helper.
func (t *Tabs) call(ctx context.Context, f func(context.Context) error) (interrupted bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := t.enter(ctx, &cancel); err != nil {
		return false, err
	}
	err = f(ctx)
	t.mu.Lock()
	delete(t.inflight, &cancel)
	interrupted = t.interrupted
	t.mu.Unlock()
	return interrupted, err
}

// enter takes the desktop lock for a call and registers its cancel for
// Interrupt, unless the tabs closed first.
func (t *Tabs) enter(ctx context.Context, cancel *context.CancelFunc) error {
	t.ending.RLock()
	defer t.ending.RUnlock()
	t.mu.Lock()
	closed := t.closed
	t.mu.Unlock()
	if closed {
		return released()
	}
	if l := t.d.cfg.Lock; l != nil {
		if err := l.Acquire(ctx, t.conversation); err != nil {
			return &lockErr{err}
		}
	}
	t.mu.Lock()
	t.interrupted = false
	t.inflight[cancel] = struct{}{}
	t.mu.Unlock()
	return nil
}

// released is the answer to a call on tabs that were closed.
func released() error {
	return drivers.Errorf(drivers.CodeTabGone, nil, "This conversation released the computer; open an app again to go on.")
}

// Observe reads the focused window of the selected app.
func (t *Tabs) Observe(ctx context.Context, opts drivers.ObserveOptions) (*drivers.Observation, error) {
	if opts.Find != nil || opts.Within != nil || opts.After != nil || opts.FullPage {
		return nil, drivers.Errorf(drivers.CodeBadInput, nil, "Use my apps shows the focused window as it is: observe without fullPage, within, after or find.")
	}
	app, _, err := t.selected()
	if err != nil {
		return nil, err
	}
	var o *protocol.Observation
	stopped, err := t.call(ctx, func(ctx context.Context) (e error) {
		o, e = t.d.client.Observe(ctx, app)
		return e
	})
	if err != nil {
		return nil, failure(err, false, stopped)
	}
	t.mu.Lock()
	t.last = o
	t.mu.Unlock()
	return render(o, app, opts.Screenshot, opts.MaxChars), nil
}

// Do performs one action on the computer.
func (t *Tabs) Do(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return drivers.Dispatch(ctx, acting{t}, a)
}

// guardFor is the guard of an input on target, from its evidence, or from
// the latest observation when target is nil.
func (t *Tabs) guardFor(target *drivers.Target) (protocol.Guard, *protocol.ElementTarget, *protocol.Observation, error) {
	app, last, err := t.selected()
	if err != nil {
		return protocol.Guard{}, nil, nil, err
	}
	if target == nil {
		if last == nil {
			return protocol.Guard{}, nil, nil, drivers.Errorf(drivers.CodeBadInput, nil, "Observe the window first.")
		}
		return protocol.Guard{App: app, Window: last.Window.Fingerprint}, nil, last, nil
	}
	ev, ok := parseEvidence(target.Fingerprint)
	if !ok {
		return protocol.Guard{}, nil, nil, drivers.Errorf(drivers.CodeTargetGone, nil, "%s is not an element of an observation of your apps; observe again and use a ref such as ax12.", target.Ref)
	}
	if ev.App != app {
		return protocol.Guard{}, nil, nil, drivers.Errorf(drivers.CodeTargetGone, nil, "%s belongs to %s, not to %s that you work in now; observe again.", target.Ref, ev.App, app)
	}
	el := &protocol.ElementTarget{Ref: target.Ref, Locator: ev.Locator, Fingerprint: ev.Element}
	return protocol.Guard{App: ev.App, Window: ev.Window}, el, last, nil
}

func (t *Tabs) input(ctx context.Context, f func(context.Context) (*protocol.InputResult, error)) (*drivers.Outcome, error) {
	stopped, err := t.call(ctx, func(ctx context.Context) error {
		_, e := f(ctx)
		return e
	})
	if err != nil {
		return nil, failure(err, true, stopped)
	}
	return &drivers.Outcome{Result: drivers.Done}, nil
}

func (t *Tabs) click(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a.Point != nil {
		g, _, last, err := t.guardFor(nil)
		if err != nil {
			return nil, err
		}
		p := &protocol.PointTarget{X: a.Point.X, Y: a.Point.Y, Scale: last.Screenshot.Scale, Screenshot: last.Screenshot.Hash}
		return t.input(ctx, func(ctx context.Context) (*protocol.InputResult, error) {
			return t.d.client.Click(ctx, protocol.ClickArgs{Guard: g, Point: p})
		})
	}
	if a.Target == nil {
		return nil, drivers.Errorf(drivers.CodeBadInput, nil, "click needs a target: a ref from the latest observation, or a pixel of its screenshot.")
	}
	g, el, _, err := t.guardFor(a.Target)
	if err != nil {
		return nil, err
	}
	return t.input(ctx, func(ctx context.Context) (*protocol.InputResult, error) {
		return t.d.client.Click(ctx, protocol.ClickArgs{Guard: g, Element: el})
	})
}

func (t *Tabs) fill(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a.Target == nil {
		return nil, drivers.Errorf(drivers.CodeBadInput, nil, "fill needs a target: a ref from the latest observation.")
	}
	if e := protocol.CheckFillValue(a.Value); e != nil {
		return nil, drivers.Errorf(drivers.CodeBadInput, e, "%s", e.Message)
	}
	g, el, _, err := t.guardFor(a.Target)
	if err != nil {
		return nil, err
	}
	return t.input(ctx, func(ctx context.Context) (*protocol.InputResult, error) {
		return t.d.client.Fill(ctx, protocol.FillArgs{Guard: g, Element: *el, Value: a.Value})
	})
}

func (t *Tabs) press(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if !protocol.KeyAllowed(a.Value) {
		return nil, drivers.Errorf(drivers.CodeBadInput, nil, "%q is not a key press sends; use one character, or Enter, Tab, Escape, Backspace, Delete, an arrow, Home, End, PageUp, PageDown or Space.", a.Value)
	}
	g, _, _, err := t.guardFor(a.Target)
	if err != nil {
		return nil, err
	}
	return t.input(ctx, func(ctx context.Context) (*protocol.InputResult, error) {
		return t.d.client.Press(ctx, protocol.PressArgs{Guard: g, Key: a.Value})
	})
}

// navigate opens a in an ordinary tab of the owner's browser app, after the
// URL rules, and makes the browser the selected app.
func (t *Tabs) navigate(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if _, _, err := t.selected(); err != nil {
		return nil, err
	}
	browser := t.d.cfg.apps().Browser
	if browser == "" {
		return nil, drivers.Errorf(drivers.CodeNoBrowser, nil, "The owner has not chosen a browser app for Use my apps; ask them to pick one in Settings.")
	}
	if check := t.d.cfg.CheckURL; check != nil {
		if err := check(a.URL); err != nil {
			return nil, err
		}
	}
	var nav *protocol.Navigated
	stopped, err := t.call(ctx, func(ctx context.Context) (e error) {
		nav, e = t.d.client.Navigate(ctx, browser, a.URL)
		return e
	})
	if err != nil {
		return nil, failure(err, true, stopped)
	}
	t.mu.Lock()
	t.app, t.last = nav.Browser.ID, nil
	t.mu.Unlock()
	return &drivers.Outcome{Result: drivers.Navigated, URL: nav.URL, Changed: true}, nil
}

// OpenApp brings an allowed app forward by id and makes it the selected
// app. An app off the owner's list goes to Approve first.
func (t *Tabs) OpenApp(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if _, _, err := t.selected(); err != nil {
		return nil, err
	}
	if a.AppID == "" {
		return nil, drivers.Errorf(drivers.CodeBadInput, nil, "Open an app by its id (appId), as the owner's list of allowed apps names it.")
	}
	if !t.d.cfg.apps().Allows(a.AppID) {
		if err := t.approve(ctx, a.AppID); err != nil {
			return nil, err
		}
	}
	var op *protocol.Opened
	stopped, err := t.call(ctx, func(ctx context.Context) (e error) {
		op, e = t.d.client.Open(ctx, protocol.OpenArgs{ID: a.AppID})
		return e
	})
	if err != nil {
		return nil, failure(err, true, stopped)
	}
	t.mu.Lock()
	t.app, t.last = op.App.ID, nil
	t.mu.Unlock()
	return &drivers.Outcome{Result: drivers.Done, Title: fmt.Sprintf("%s (%s)", op.App.Name, op.App.ID), Changed: true}, nil
}

func (t *Tabs) approve(ctx context.Context, id string) error {
	if t.d.cfg.Approve == nil {
		return drivers.Errorf(drivers.CodeNotAllowed, nil, "%s is not on the owner's list of allowed apps; ask the owner to allow it in Settings.", id)
	}
	return t.d.cfg.Approve(ctx, t.conversation, protocol.App{ID: id})
}

// screenshot is the latest observation's picture of the window.
func (t *Tabs) screenshot(ctx context.Context) (*drivers.Outcome, error) {
	obs, err := t.Observe(ctx, drivers.ObserveOptions{Screenshot: true})
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	last := t.last
	t.mu.Unlock()
	if last == nil {
		return nil, drivers.Errorf(drivers.CodeNotAnswering, nil, "The window could not be captured; observe again.")
	}
	img, err := jpegOf(obs.Screenshot)
	if err != nil {
		return nil, drivers.Errorf(drivers.CodeNotAnswering, err, "The window's picture could not be read; observe again.")
	}
	return &drivers.Outcome{Result: drivers.Done, Image: img, Width: last.Screenshot.Width, Height: last.Screenshot.Height,
		App: last.Window.AppID}, nil
}

// Interrupt cancels the calls in flight, which kills their helpers.
func (t *Tabs) Interrupt() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.interrupted = true
	for c := range t.inflight {
		(*c)()
	}
}

// Close forgets the conversation's app and observation and gives the
// desktop lock back; every app and window stays open.
func (t *Tabs) Close(ctx context.Context) error {
	t.drop()
	if l := t.d.cfg.Lock; l != nil {
		l.Release(ctx, t.conversation)
	}
	return nil
}

// drop ends the conversation's hold on the driver, keeping its lock: the
// driver closing (a mode switch, a shutdown) is not the conversation
// releasing control.
func (t *Tabs) drop() {
	t.ending.Lock()
	defer t.ending.Unlock()
	t.Interrupt()
	t.mu.Lock()
	t.closed, t.last = true, nil
	t.mu.Unlock()
	t.d.forget(t)
}

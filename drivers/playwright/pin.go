package playwright

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

var (
	_ drivers.Screencaster = (*Tabs)(nil)
	_ drivers.RawInput     = (*pinned)(nil)
	_ drivers.Fitter       = (*pinned)(nil)
)

// Pin holds the conversation's active tab for the owner's hand, through a
// DevTools session of its own. The pin stays on that page: if the page
// closes, commits a document the URL rules refuse, or its DevTools session
// detaches, the pin is gone and says why.
func (ts *Tabs) Pin(ctx context.Context) (drivers.Pinned, error) {
	t, err := ts.current()
	if err != nil {
		return nil, err
	}
	s, err := call(ctx, func() (pw.CDPSession, error) { return t.b.bctx.NewCDPSession(t.page) })
	if err != nil {
		return nil, t.failed(err, notAnswering)
	}
	p := &pinned{t: t, s: s, gone: make(chan struct{})}
	t.driven.Store(p)
	s.OnClose(func(pw.CDPSession) {
		p.end(messages.CodeNotAnswering, "The page you were driving lost its connection to buddi; take over again.")
	})
	t.page.OnClose(func(pw.Page) {
		p.end(messages.CodeTabGone, "The page you were driving closed; take over again to drive another.")
	})
	t.page.OnFrameNavigated(func(f pw.Frame) {
		if f.ParentFrame() == nil {
			p.navigated(f.URL())
		}
	})
	s.On("Page.screencastFrame", p.frame)
	if t.closed.Load() {
		p.end(messages.CodeTabGone, "The page you were driving closed; take over again to drive another.")
	}
	return p, nil
}

// pinned is one page held for the hand. Playwright calls its handlers on
// its dispatch goroutine; they only record, and the acknowledgement of a
// frame goes out on a goroutine of its own.
type pinned struct {
	t    *tab
	s    pw.CDPSession
	gone chan struct{}
	done atomic.Bool // unpinned: the handlers do nothing

	mu    sync.Mutex
	why   *messages.Error
	sink  func(*drivers.CastFrame)
	epoch int // rises with every Cast and StopCast: a Cast still starting after a later one gives up
	// agents is the page's size before the first Fit, given back by Unfit;
	// nil while the page has the agent's own size.
	agents *pw.Size
}

func (p *pinned) end(code messages.Code, msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.why != nil {
		return
	}
	p.why = &messages.Error{Code: code, Message: msg}
	p.sink = nil
	p.t.driven.CompareAndSwap(p, nil)
	close(p.gone)
}

func (p *pinned) navigated(url string) {
	cfg := &p.t.owner.d.cfg
	check := cfg.CheckURL
	if cfg.OwnerURL != nil {
		check = cfg.OwnerURL
	}
	if p.done.Load() || check == nil || blank(url) {
		return
	}
	if err := check(url); err != nil {
		p.end(messages.CodeHostNotListed, "The page you were driving went to a site the agent may not use; take over again.")
	}
}

func (p *pinned) Gone() <-chan struct{} { return p.gone }

func (p *pinned) Why() *messages.Error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.why
}

// frame passes one screencast frame on. Chromium makes no new picture
// until the frame is acknowledged: the frame's Release does that, when the
// pacer wants the next, so the pictures the tab could never draw are not
// made (and do not queue ahead of the owner's input on the way here).
func (p *pinned) frame(ev map[string]any) {
	id, _ := ev["sessionId"].(float64)
	var once sync.Once
	ack := func() {
		once.Do(func() {
			go func() { _, _ = send(p.s, cdp.ScreencastFrameAck{SessionID: int(id)}) }()
		})
	}
	p.mu.Lock()
	sink := p.sink
	p.mu.Unlock()
	data, _ := ev["data"].(string)
	if sink == nil || p.done.Load() {
		ack()
		return
	}
	jpg, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		ack()
		return
	}
	meta, _ := ev["metadata"].(map[string]any)
	num := func(k string) float64 { v, _ := meta[k].(float64); return v }
	sink(&drivers.CastFrame{JPEG: jpg, Header: handwire.FrameHeader{
		TimeMs: num("timestamp") * 1000, PageWidth: uint16(num("deviceWidth")), PageHeight: uint16(num("deviceHeight")),
		Scale: float32(num("pageScaleFactor")), OffsetTop: float32(num("offsetTop")),
		ScrollX: float32(num("scrollOffsetX")), ScrollY: float32(num("scrollOffsetY"))}, Release: ack})
}

// Cast starts or restarts the screencast with o.
func (p *pinned) Cast(ctx context.Context, o drivers.CastOptions, sink func(*drivers.CastFrame)) error {
	p.mu.Lock()
	if p.why != nil {
		defer p.mu.Unlock()
		return fail(p.why.Code, nil, p.why.Message)
	}
	p.epoch++
	epoch := p.epoch
	p.sink = sink
	p.mu.Unlock()
	_, _ = call(ctx, func() (any, error) { return p.s.Send("Page.stopScreencast", nil) })
	start := cdp.StartScreencast{Format: "jpeg", Quality: o.Quality, MaxWidth: o.MaxWidth, MaxHeight: o.MaxHeight, EveryNthFrame: 1}
	// Chromium finishes stopping a screencast after it answered the stop:
	// a start right behind it can find it still active, for a moment. And
	// while the page is between two documents (a visit that changed its
	// renderer), a start finds no page to attach to, for a moment too.
	for {
		if !p.current(epoch) {
			return nil // stopped, or started again, meanwhile
		}
		_, err := call(ctx, func() (any, error) { return send(p.s, start) })
		if err == nil {
			if !p.current(epoch) { // stopped while it started
				_, _ = call(ctx, func() (any, error) { return p.s.Send("Page.stopScreencast", nil) })
			}
			return nil
		}
		if !castAgain(err) {
			return p.t.failed(err, notAnswering)
		}
		select {
		case <-ctx.Done():
			return p.t.failed(err, notAnswering)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// castAgain says whether a screencast's start failed for a moment only:
// the last one still stopping, or the page between two documents.
func castAgain(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "already active") || strings.Contains(msg, "Not attached to an active page")
}

// current says whether the Cast of epoch is still the latest word.
func (p *pinned) current(epoch int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.epoch == epoch && !p.done.Load()
}

// StopCast stops the screencast; no frame reaches the sink after.
func (p *pinned) StopCast(ctx context.Context) error {
	p.mu.Lock()
	p.epoch++
	p.sink = nil
	gone := p.why != nil
	p.mu.Unlock()
	if gone {
		return nil
	}
	_, err := call(ctx, func() (any, error) { return p.s.Send("Page.stopScreencast", nil) })
	if err != nil {
		return p.t.failed(err, notAnswering)
	}
	return nil
}

// Unpin detaches the pin's DevTools session.
func (p *pinned) Unpin() {
	if p.done.Swap(true) {
		return
	}
	p.t.driven.CompareAndSwap(p, nil)
	p.mu.Lock()
	p.epoch++
	p.sink = nil
	p.mu.Unlock()
	go func() {
		_, _ = p.s.Send("Page.stopScreencast", nil)
		_ = p.s.Detach()
	}()
}

// Input sends one pointer or key input to the pinned page.
func (p *pinned) Input(ctx context.Context, in *handwire.Input) error {
	select {
	case <-p.gone:
		w := p.Why()
		return fail(w.Code, nil, w.Message)
	default:
	}
	m, k := p.t.page.Mouse(), p.t.page.Keyboard()
	_, err := call(ctx, func() (struct{}, error) {
		switch in.Kind {
		case handwire.Move:
			return struct{}{}, m.Move(in.X, in.Y)
		case handwire.Down, handwire.Up:
			return struct{}{}, press(m, in)
		case handwire.Wheel:
			if err := m.Move(in.X, in.Y); err != nil {
				return struct{}{}, err
			}
			return struct{}{}, m.Wheel(in.DX, in.DY)
		case handwire.KeyDown:
			return struct{}{}, k.Down(in.Key)
		case handwire.KeyUp:
			return struct{}{}, k.Up(in.Key)
		case handwire.Char:
			return struct{}{}, k.Type(in.Key)
		}
		return struct{}{}, nil
	})
	if err != nil {
		return p.t.failed(err, notAnswering)
	}
	return nil
}

func press(m pw.Mouse, in *handwire.Input) error {
	if err := m.Move(in.X, in.Y); err != nil {
		return err
	}
	b := map[string]*pw.MouseButton{handwire.ButtonLeft: pw.MouseButtonLeft,
		handwire.ButtonMiddle: pw.MouseButtonMiddle, handwire.ButtonRight: pw.MouseButtonRight}[in.Button]
	if in.Kind == handwire.Down {
		return m.Down(pw.MouseDownOptions{Button: b})
	}
	return m.Up(pw.MouseUpOptions{Button: b})
}

// Fit lays the page out at w×h CSS pixels, keeping the agent's size for
// Unfit. The agent's size is read from the page itself: a context launched
// with Playwright's default viewport does not name it.
func (p *pinned) Fit(ctx context.Context, w, h int) error {
	world, err := p.sizeWorld(ctx)
	if err != nil {
		return p.t.failed(err, notAnswering)
	}
	p.mu.Lock()
	known := p.agents != nil
	p.mu.Unlock()
	if !known {
		aw, ah, err := p.sizeIn(ctx, world)
		if err != nil {
			return p.t.failed(err, notAnswering)
		}
		if aw <= 0 || ah <= 0 {
			return fail(messages.CodeNotAnswering, nil, "The page did not say its size; take over again.")
		}
		p.mu.Lock()
		p.agents = &pw.Size{Width: aw, Height: ah}
		p.mu.Unlock()
	}
	if err := p.resize(ctx, w, h); err != nil {
		return p.t.failed(err, notAnswering)
	}
	if err := p.sized(ctx, world, w, h); err != nil {
		// Driven at the agent's size rather than at one the pictures may never show.
		c, cancel := context.WithTimeout(context.WithoutCancel(ctx), fitWait)
		defer cancel()
		_ = p.Unfit(c)
		return err
	}
	p.drawn(ctx, world)
	return nil
}

// drawWait bounds drawn.
const drawWait = time.Second

// drawn waits, within drawWait, until the page has drawn two frames since
// it took its new size. The page says its size before its picture has
// it; a screencast started in between began with a picture of the old
// size, dropped the first of the new (Chromium drops the first picture
// after a resize), and a still page then never sent another: after its
// size was given twice (resize), 2 of 16 take-overs on the phone here kept
// a picture of the old size, or of the size between.
func (p *pinned) drawn(ctx context.Context, world int) {
	c, cancel := context.WithTimeout(ctx, drawWait)
	defer cancel()
	_, _ = call(c, func() (any, error) {
		return send(p.s, cdp.Evaluate{Expression: "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))",
			AwaitPromise: true, ContextID: world})
	})
}

// sized waits until the page has w×h CSS pixels. Chromium answers a new
// size before the page has it: on a busy machine the screencast started
// right after still sent pictures of the old size, and since it drops the
// first picture after a resize, a still page then never sent one of the new
// size (the phone showed the page at 1280×720 while it was laid out at 375
// wide, and taps went where the picture was not).
//
// A page whose loading a take-over had just stopped sometimes never took
// its new size, or took it without a picture of it: on the phone here, 6
// of 16 take-overs while the agent went between two sites, with the page
// still at 1280 wide 5 s later in 3 of them. Given the size twice (see
// resize), 1 of 16. So a size that has not come within nudgeEvery is given
// again, as many as nudges times.
func (p *pinned) sized(ctx context.Context, world, w, h int) error {
	c, cancel := context.WithTimeout(ctx, fitWait)
	defer cancel()
	next, nudged := time.Now().Add(nudgeEvery), 0
	for {
		gw, gh, err := p.sizeIn(c, world)
		if err == nil && gw == w && gh == h {
			return nil
		}
		if nudged < nudges && time.Now().After(next) {
			nudged++
			next = time.Now().Add(nudgeEvery)
			if err := p.resize(c, w, h); err != nil && !errors.Is(err, errAbandoned) {
				return p.t.failed(err, notAnswering)
			}
		}
		if errors.Is(err, errNoWorld) { // another document: read it in a world of its own
			if world, err = p.sizeWorld(c); err != nil && !errors.Is(err, errAbandoned) {
				return p.t.failed(err, notAnswering)
			}
		}
		select {
		case <-c.Done():
			return p.t.failed(abandoned(c), notAnswering)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// A size that has not reached the page within nudgeEvery is given again,
// at most nudges times.
const (
	nudgeEvery = time.Second
	nudges     = 3
)

// resize gives the page w×h CSS pixels by way of w×(h+1): the same size
// given again changes nothing, and a page stopped while it loaded did not
// always take a single new size (see sized).
func (p *pinned) resize(ctx context.Context, w, h int) error {
	if err := do(ctx, func() error { return p.t.page.SetViewportSize(w, h+1) }); err != nil {
		return err
	}
	return do(ctx, func() error { return p.t.page.SetViewportSize(w, h) })
}

// sizeWorldName names the worlds a pin reads the page's size in.
const sizeWorldName = "buddi-size"

// errNoWorld is a size world whose document is gone.
var errNoWorld = errors.New("playwright: the size world's document is gone")

// sizeWorld makes a world of the pin's own in the page's current document,
// where the page's size is read: a page's script that declares a global
// innerWidth (or assigns the window's) hides the window's own from every
// read in the page's world, and a Fit that read it there waited for a size
// the page never reported, then gave the agent back a page of the size the
// script had made up.
func (p *pinned) sizeWorld(ctx context.Context) (int, error) {
	p.t.mu.Lock()
	frame := p.t.mainFrame
	p.t.mu.Unlock()
	v, err := call(ctx, func() (any, error) {
		return send(p.s, cdp.CreateIsolatedWorld{FrameID: frame, WorldName: sizeWorldName})
	})
	if err != nil {
		return 0, err
	}
	m, _ := v.(map[string]any)
	id, _ := m["executionContextId"].(float64)
	if id == 0 {
		return 0, errNoWorld
	}
	return int(id), nil
}

// sizeIn reads the page's size in CSS pixels in world; errNoWorld when
// its document is gone.
func (p *pinned) sizeIn(ctx context.Context, world int) (int, int, error) {
	v, err := call(ctx, func() (any, error) {
		return send(p.s, cdp.Evaluate{Expression: "[innerWidth, innerHeight]", ReturnByValue: true, ContextID: world})
	})
	switch {
	case errors.Is(err, errAbandoned):
		return 0, 0, err
	case err != nil:
		return 0, 0, errNoWorld
	}
	wh, _ := resultValue(v).([]any)
	if len(wh) != 2 {
		return 0, 0, errNoWorld
	}
	return number(wh[0]), number(wh[1]), nil
}

// fitWait bounds the wait for a new size to reach the page.
const fitWait = 5 * time.Second

// number is a whole number the page answered, whichever Go type it came as.
func number(v any) int {
	switch n := v.(type) {
	case int:
		return n
	case float64:
		return int(n)
	case int64:
		return int(n)
	}
	return 0
}

// Unfit gives the page back the size the agent had.
func (p *pinned) Unfit(ctx context.Context) error {
	p.mu.Lock()
	size := p.agents
	p.agents = nil
	p.mu.Unlock()
	if size == nil || p.t.closed.Load() {
		return nil
	}
	world, err := p.sizeWorld(ctx)
	if err != nil {
		return p.t.failed(err, notAnswering)
	}
	if err := p.resize(ctx, size.Width, size.Height); err != nil {
		return p.t.failed(err, notAnswering)
	}
	return p.sized(ctx, world, size.Width, size.Height)
}

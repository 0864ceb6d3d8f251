package sim

import (
	"context"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

var (
	_ drivers.Screencaster = (*Tabs)(nil)
	_ drivers.RawInput     = (*pinned)(nil)
	_ drivers.Fitter       = (*pinned)(nil)
)

// The simulated page is 1280×800 CSS pixels.
const (
	pageWidth  = 1280
	pageHeight = 800
)

// Pin holds the active tab for a hand. Its screencast sends a frame every
// 1/CastFPS seconds (its picture padded to CastBytes, when set); its raw
// input is recorded (HandInputs) and otherwise does nothing. The pin is gone
// when its tab or the tabs close.
func (t *Tabs) Pin(ctx context.Context) (drivers.Pinned, error) {
	if err := ctx.Err(); err != nil {
		return nil, errContext(err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.active == nil {
		return nil, errTabGone()
	}
	if t.done == nil {
		t.done = make(chan struct{})
	}
	p := &pinned{t: t, tab: t.active, gone: make(chan struct{})}
	go p.watch(t.done)
	return p, nil
}

// pinned is one tab held for a hand.
type pinned struct {
	t    *Tabs
	tab  *tab
	gone chan struct{}
	once sync.Once

	mu    sync.Mutex
	stop  context.CancelFunc // the running screencast's
	ended chan struct{}      // closed when that screencast's goroutine has returned
	w, h  int                // the page's layout size while fitted (Fit); 0: its own
}

func (p *pinned) watch(done <-chan struct{}) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			p.end()
			return
		case <-p.gone:
			return
		case <-tick.C:
			if !p.t.holds(p.tab) {
				p.end()
				return
			}
		}
	}
}

func (p *pinned) end() { p.once.Do(func() { close(p.gone) }) }

func (p *pinned) Gone() <-chan struct{} { return p.gone }

func (p *pinned) Why() *messages.Error {
	return &messages.Error{Code: messages.CodeTabGone, Message: "The page you were driving closed; take over again to drive another."}
}

func (p *pinned) Cast(_ context.Context, o drivers.CastOptions, sink func(*drivers.CastFrame)) error {
	_ = p.StopCast(context.Background())
	if p.t.d.cfg.CastFails {
		return errNotAnswering()
	}
	jpg, _, _ := shot(min(o.MaxWidth, o.MaxHeight*16/10)) // the box, turned or not
	if n := p.t.d.cfg.CastBytes; n > len(jpg) {
		jpg = append(jpg, make([]byte, n-len(jpg))...) // shot's capacity ends at its length: this copies
	}
	p.t.mu.Lock()
	p.t.casts++
	blank := p.t.casts <= p.t.d.cfg.CastsBlank
	p.t.mu.Unlock()
	every := time.Second / time.Duration(max(p.t.d.cfg.CastFPS, 1))
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	p.mu.Lock()
	old := p.stop // a Cast that raced this one: it stops now
	p.stop, p.ended = cancel, ended
	p.mu.Unlock()
	if old != nil {
		old()
	}
	go func() {
		defer close(ended)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-p.gone:
				return
			case now := <-tick.C:
				if blank {
					continue
				}
				w, h := p.size()
				sink(&drivers.CastFrame{JPEG: jpg, Header: handwire.FrameHeader{
					TimeMs: float64(now.UnixMicro()) / 1000, PageWidth: uint16(w), PageHeight: uint16(h), Scale: 1}})
			}
		}
	}()
	return nil
}

func (p *pinned) StopCast(context.Context) error {
	p.mu.Lock()
	stop, ended := p.stop, p.ended
	p.stop, p.ended = nil, nil
	p.mu.Unlock()
	if stop != nil {
		stop()
		<-ended
	}
	return nil
}

// Fit lays the page out at w×h: its frames say so from now on, unless
// the layout is one of the first FitsLost, which the page never takes.
func (p *pinned) Fit(_ context.Context, w, h int) error {
	time.Sleep(p.t.d.cfg.FitLatency)
	p.t.mu.Lock()
	p.t.fits = append(p.t.fits, [2]int{w, h})
	lost := len(p.t.fits) <= p.t.d.cfg.FitsLost
	p.t.mu.Unlock()
	if !lost {
		p.mu.Lock()
		p.w, p.h = w, h
		p.mu.Unlock()
	}
	return nil
}

// Unfit gives the page its own size back.
func (p *pinned) Unfit(context.Context) error { return p.Fit(context.Background(), 0, 0) }

// size is the page's layout size now.
func (p *pinned) size() (int, int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.w == 0 {
		return pageWidth, pageHeight
	}
	return p.w, p.h
}

func (p *pinned) Unpin() {
	_ = p.StopCast(context.Background())
	p.end()
}

// Input records one hand input (a typed character without its key).
func (p *pinned) Input(ctx context.Context, in *handwire.Input) error {
	if err := ctx.Err(); err != nil {
		return errContext(err)
	}
	select {
	case <-p.gone:
		return errTabGone()
	default:
	}
	rec := *in
	if rec.Kind == handwire.Char {
		rec.Key = ""
	}
	p.t.mu.Lock()
	p.t.hands = append(p.t.hands, rec)
	p.t.mu.Unlock()
	return nil
}

// HandInputs is the hand input the tabs' pins received, in order, typed
// characters without their key.
func (t *Tabs) HandInputs() []handwire.Input {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]handwire.Input(nil), t.hands...)
}

// Casts is how many screencasts the tabs' pins were asked to start.
func (t *Tabs) Casts() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.casts
}

// Fits are the sizes the tabs' pins laid their page out at, in order;
// {0, 0} gave the page its own size back.
func (t *Tabs) Fits() [][2]int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([][2]int(nil), t.fits...)
}

// holds says whether tb is still one of the tabs.
func (t *Tabs) holds(tb *tab) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, x := range t.tabs {
		if x == tb {
			return true
		}
	}
	return false
}

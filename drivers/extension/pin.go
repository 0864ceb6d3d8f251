package extension

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/cdp"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
	"github.com/buddi-dev/buddi/messages/handwire"
)

var (
	_ drivers.Screencaster = (*Tabs)(nil)
	_ drivers.RawInput     = (*pinned)(nil)
)

// Pin holds the conversation's active tab for the owner's hand. Frames are
// Chrome's own screencast through the extension's debugger, acknowledged
// there as they arrive and sent at most ten a second; input goes to that
// tab only while it is cast, and the rule that keeps agents' input out of
// a tab the owner looks at does not hold the owner's own hand back. The
// pin is gone when the tab closes, loses its debugger, goes to a page the
// rules refuse, or the extension's connection drops.
func (ts *Tabs) Pin(ctx context.Context) (drivers.Pinned, error) {
	l, ok := ts.d.cfg.Caller.(Listener)
	if !ok {
		return nil, fail(messages.CodeNotAvailable, nil, "This connection to your browser cannot show its page live.")
	}
	tab := ts.current()
	if _, err := ts.info(ctx, tab); err != nil {
		return nil, err
	}
	p := &pinned{ts: ts, tab: tab, gone: make(chan struct{})}
	stop, err := l.Listen(p.event)
	if err != nil {
		return nil, fail(messages.CodeBrowserOffline, err, "Your browser is not connected to buddi; open Chrome on the host, or use buddi's browser instead.")
	}
	p.stop = stop
	return p, nil
}

type pinned struct {
	ts   *Tabs
	tab  int
	gone chan struct{}
	stop func()

	mu   sync.Mutex
	why  *messages.Error
	sink func(*drivers.CastFrame)
	done bool
}

// frameData is a screencast frame as the extension passes it on.
type frameData struct {
	Data     string `json:"data"`
	Metadata struct {
		OffsetTop       float64 `json:"offsetTop"`
		PageScaleFactor float64 `json:"pageScaleFactor"`
		DeviceWidth     float64 `json:"deviceWidth"`
		DeviceHeight    float64 `json:"deviceHeight"`
		ScrollOffsetX   float64 `json:"scrollOffsetX"`
		ScrollOffsetY   float64 `json:"scrollOffsetY"`
		Timestamp       float64 `json:"timestamp"`
	} `json:"metadata"`
}

// event is the listener: it runs on the connection actor and only decodes
// and hands on.
func (p *pinned) event(ev *extwire.Event) {
	switch {
	case ev.Name == "dropped":
		p.end(messages.CodeBrowserOffline, "Your browser's connection to buddi dropped; take over again when it is back.")
	case ev.Tab != int64(p.tab):
	case ev.Name == "gone":
		p.end(messages.CodeTabGone, "The page you were driving closed or lost its debugger; take over again.")
	case ev.Name == "navigated":
		var n struct {
			URL string `json:"url"`
		}
		if json.Unmarshal(ev.Data, &n) == nil && p.ts.checkURL(n.URL) != nil {
			p.end(messages.CodeHostNotListed, "The page you were driving went to a site the agent may not use; take over again.")
		}
	case ev.Name == "frame":
		p.frame(ev.Data)
	}
}

func (p *pinned) frame(raw json.RawMessage) {
	p.mu.Lock()
	sink := p.sink
	p.mu.Unlock()
	if sink == nil {
		return
	}
	var f frameData
	if json.Unmarshal(raw, &f) != nil {
		return
	}
	jpg, err := base64.StdEncoding.DecodeString(f.Data)
	if err != nil {
		return
	}
	m := f.Metadata
	sink(&drivers.CastFrame{JPEG: jpg, Header: handwire.FrameHeader{TimeMs: m.Timestamp * 1000,
		PageWidth: uint16(m.DeviceWidth), PageHeight: uint16(m.DeviceHeight), Scale: float32(m.PageScaleFactor),
		OffsetTop: float32(m.OffsetTop), ScrollX: float32(m.ScrollOffsetX), ScrollY: float32(m.ScrollOffsetY)}})
}

func (p *pinned) end(code messages.Code, msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.why != nil {
		return
	}
	p.why = &messages.Error{Code: code, Message: msg}
	p.sink = nil
	close(p.gone)
}

func (p *pinned) Gone() <-chan struct{} { return p.gone }

func (p *pinned) Why() *messages.Error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.why
}

func (p *pinned) failed() error {
	w := p.Why()
	return fail(w.Code, nil, w.Message)
}

// Cast starts, or restarts with new options, the tab's screencast.
func (p *pinned) Cast(ctx context.Context, o drivers.CastOptions, sink func(*drivers.CastFrame)) error {
	p.mu.Lock()
	if p.why != nil {
		p.mu.Unlock()
		return p.failed()
	}
	p.sink = sink
	p.mu.Unlock()
	return p.ts.d.call(ctx, "cast", map[string]any{"conv": p.ts.conv, "tab": p.tab,
		"quality": o.Quality, "maxWidth": o.MaxWidth, "maxHeight": o.MaxHeight}, nil)
}

// StopCast stops the screencast; the sink hears no more.
func (p *pinned) StopCast(ctx context.Context) error {
	p.mu.Lock()
	p.sink = nil
	gone := p.why != nil
	p.mu.Unlock()
	if gone {
		return nil
	}
	return p.ts.d.call(ctx, "uncast", map[string]any{"conv": p.ts.conv, "tab": p.tab}, nil)
}

// Unpin stops listening and the screencast.
func (p *pinned) Unpin() {
	p.mu.Lock()
	if p.done {
		p.mu.Unlock()
		return
	}
	p.done, p.sink = true, nil
	p.mu.Unlock()
	p.stop()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = p.ts.d.call(ctx, "uncast", map[string]any{"conv": p.ts.conv, "tab": p.tab}, nil)
	}()
}

// Input sends one of the owner's pointer or key inputs to the cast tab.
func (p *pinned) Input(ctx context.Context, in *handwire.Input) error {
	select {
	case <-p.gone:
		return p.failed()
	default:
	}
	c := handEvent(in)
	if c == nil {
		return nil
	}
	return p.ts.d.call(ctx, "hand", map[string]any{"conv": p.ts.conv, "tab": p.tab, "method": c.Method(), "params": c}, nil)
}

// handEvent is the debugger command one input of the hand is.
func handEvent(in *handwire.Input) cdp.Command {
	switch in.Kind {
	case handwire.Move:
		return cdp.MouseEvent{Type: cdp.MouseMoved, X: in.X, Y: in.Y}
	case handwire.Down, handwire.Up:
		kind := cdp.MousePressed
		if in.Kind == handwire.Up {
			kind = cdp.MouseReleased
		}
		return cdp.MouseEvent{Type: kind, X: in.X, Y: in.Y, Button: in.Button, ClickCount: 1}
	case handwire.Wheel:
		return cdp.MouseWheel{X: in.X, Y: in.Y, DeltaX: in.DX, DeltaY: in.DY}
	case handwire.KeyDown, handwire.KeyUp:
		ev := cdp.KeyEvent{Type: cdp.KeyDown, Key: in.Key}
		if in.Kind == handwire.KeyUp {
			ev.Type = cdp.KeyUp
		}
		if k, ok := namedKeys[in.Key]; ok {
			ev.Code, ev.WindowsVirtualKeyCode = k.code, k.vk
			if ev.Type == cdp.KeyDown {
				ev.Text = k.text
			}
		}
		return ev
	case handwire.Char:
		return cdp.InsertText{Text: in.Key}
	}
	return nil
}

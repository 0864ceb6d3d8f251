package pacer_test

import (
	"context"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"
	"github.com/lxzan/gws"

	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/internal/slowlink"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// newSlowLink puts a throttled link in front of addr, closed when the test ends.
func newSlowLink(t testing.TB, addr string, kbps int) *slowlink.Link {
	t.Helper()
	l, err := slowlink.New(addr, kbps)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// server serves one viewer per connection with frames of pin: through a
// pacer, or naively (every frame written as it comes, as a plain sender would).
type server struct {
	sys   *actor.ActorSystem
	pin   drivers.Pinned
	naive bool
	cfg   pacer.Config
	addr  string
	sent  atomic.Int64 // frames handed to the socket's writer
}

func newServer(t testing.TB, sys *actor.ActorSystem, pin drivers.Pinned, naive bool, cfg pacer.Config) *server {
	t.Helper()
	s := &server{sys: sys, pin: pin, naive: naive, cfg: cfg}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	up := gws.NewUpgrader(&serverSide{s: s}, &gws.ServerOption{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := up.Upgrade(w, r)
		if err == nil {
			go conn.ReadLoop()
		}
	}), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

// serverSide starts the frames once the socket opens and passes acks on.
type serverSide struct {
	gws.BuiltinEventHandler
	s *server
}

type wire struct {
	conn   *gws.Conn
	frames chan []byte
	done   chan struct{}
	once   sync.Once
	s      *server
}

func (w *wire) Frame(b []byte) {
	w.s.sent.Add(1)
	select {
	case w.frames <- b:
	case <-w.done:
	}
}
func (*wire) Ping()                  {}
func (*wire) Check() *messages.Error { return nil }
func (*wire) End(*messages.Error)    {}

func (w *wire) write() {
	for {
		select {
		case b := <-w.frames:
			if w.conn.WriteMessage(gws.OpcodeBinary, b) != nil {
				w.stop()
				return
			}
		case <-w.done:
			return
		}
	}
}

func (w *wire) stop() { w.once.Do(func() { close(w.done) }) }

const wireKey = "wire"

func (e *serverSide) OnOpen(c *gws.Conn) {
	s := e.s
	w := &wire{conn: c, frames: make(chan []byte, 100000), done: make(chan struct{}), s: s}
	go w.write()
	if s.naive {
		var seq atomic.Uint32
		sink := func(f *drivers.CastFrame) {
			if f.Release != nil {
				f.Release() // every picture the browser can make
			}
			h := f.Header
			h.Seq = seq.Add(1)
			w.Frame(handwire.EncodeFrame(h, f.JPEG))
		}
		_ = s.pin.Cast(context.Background(), s.cfg.Steps[0], sink)
		c.Session().Store(wireKey, w)
		return
	}
	cfg := s.cfg
	cfg.Pin, cfg.Screen = s.pin, w
	pid := s.sys.Root.Spawn(pacer.Props(cfg))
	c.Session().Store(wireKey, pid)
}

func (e *serverSide) OnMessage(c *gws.Conn, m *gws.Message) {
	defer m.Close()
	v, _ := c.Session().Load(wireKey)
	if pid, ok := v.(*actor.PID); ok {
		in, err := handwire.DecodeInput(m.Bytes())
		if err == nil && in.Kind == handwire.Ack {
			e.s.sys.Root.Send(pid, &pacer.Ack{Seq: in.Seq})
		}
	}
}

func (e *serverSide) OnClose(c *gws.Conn, _ error) {
	switch v, _ := c.Session().Load(wireKey); w := v.(type) {
	case *actor.PID:
		e.s.sys.Root.Stop(w)
	case *wire:
		w.stop()
	}
}

// viewer is the dashboard tab: it acks each frame once it has it all.
type viewer struct {
	gws.BuiltinEventHandler
	conn  *gws.Conn
	mu    sync.Mutex
	acked uint32 // the last frame acked
	bad   string // the first broken rule seen
	steps map[uint8]bool
	ages  []time.Duration
	bytes int64
	got   chan handwire.FrameHeader
	first time.Time
}

func dialViewer(t testing.TB, addr string) *viewer {
	t.Helper()
	v := &viewer{steps: map[uint8]bool{}, got: make(chan handwire.FrameHeader, 100000)}
	conn, _, err := gws.NewClient(v, &gws.ClientOption{Addr: "ws://" + addr + "/"})
	if err != nil {
		t.Fatal(err)
	}
	v.conn = conn
	go conn.ReadLoop()
	t.Cleanup(func() { _ = conn.NetConn().Close() })
	return v
}

func (v *viewer) OnMessage(c *gws.Conn, m *gws.Message) {
	defer m.Close()
	h, jpg, err := handwire.DecodeFrame(m.Bytes())
	if err != nil {
		return
	}
	now := time.Now()
	v.mu.Lock()
	if h.Seq != v.acked+1 && v.bad == "" {
		v.bad = "frame " + itoa(h.Seq) + " arrived after the ack of frame " + itoa(v.acked)
	}
	v.acked = h.Seq
	v.steps[h.Step] = true
	if v.first.IsZero() {
		v.first = now
	}
	v.bytes += int64(len(jpg) + handwire.FrameHeaderSize)
	v.ages = append(v.ages, now.Sub(time.UnixMicro(int64(h.TimeMs*1000))))
	v.mu.Unlock()
	_ = c.WriteString(`{"t":"ack","seq":` + itoa(h.Seq) + `}`)
	v.got <- h
}

func itoa(n uint32) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}

// percentile is the p-th percentile of ds (0 < p ≤ 1).
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(int(float64(len(s))*p), len(s)-1)]
}

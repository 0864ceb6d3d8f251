package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lxzan/gws"

	"github.com/buddi-dev/buddi/internal/slowlink"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// The remote hands: --hands N takes over N conversations of their own and
// drives each from a simulated dashboard tab behind a link of --link-kbps
// (a throttled proxy), moving the pointer every 100 ms and clicking every
// two seconds. Every frame is checked: it follows the tab's ack of the one
// before (ordered, one on the wire), it is no larger than two megabytes, and
// the picture is no older than one transfer plus one ack, give or take one
// screencast interval and handSlack for the run's own scheduling.
const (
	handFPS      = 20
	handBytes    = 48 << 10               // each simulated frame, so that the link matters
	handSlack    = 500 * time.Millisecond // the run's own scheduling, under -race on two busy cores
	handMaxFrame = 2 << 20
)

// hands are the run's remote hands.
type hands struct {
	r      *run
	cookie string
	csrf   string
	links  []*slowlink.Link
	frames atomic.Int64
	bytes  atomic.Int64
	ends   atomic.Int64
	why    map[string]int64 // why hands ended, by code (under the stats' lock)
	ages   hist             // how old each picture was when it arrived
}

// openHandPage makes the hand's conversation hold a page: an observe,
// asked again when the run's own chaos crashed the session under it (the
// answer is restarted, as the crash rate provokes on any act).
func (r *run) openHandPage(token, conv string) error {
	body := []byte(`{"conversation":"` + conv + `","input":{"action":"observe"}}`)
	for try := 0; ; try++ {
		var rep actReply
		if err := r.cl.do("POST", "/api/tools/browser.act", token, body, &rep); err != nil {
			return err
		}
		switch {
		case rep.Error == nil:
			return nil
		case rep.Error.Code != messages.CodeRestarted || try == 9:
			return refuse("hand %s could not open its page: %s", conv, rep.Error.Message)
		}
	}
}

// setupHands signs a dashboard tab in and starts each hand's conversation.
func (r *run) setupHands() (*hands, error) {
	h := &hands{r: r, why: map[string]int64{}}
	if err := h.signIn(); err != nil {
		return nil, err
	}
	a := r.agents[0]
	for i := range r.cfg.Hands {
		conv := fmt.Sprintf("h%05d", i)
		if code := r.startTask("task_start", a.name, conv, maxSteps); code != "" {
			return h, refuse("the task of hand %s did not start: %s", conv, code)
		}
		if err := r.openHandPage(a.token, conv); err != nil {
			return h, err
		}
		l, err := slowlink.New(strings.TrimPrefix(r.local.base(), "http://"), r.cfg.LinkKbps)
		if err != nil {
			return h, err
		}
		h.links = append(h.links, l)
	}
	return h, nil
}

func (h *hands) close() {
	for _, l := range h.links {
		_ = l.Close()
	}
}

// signIn uses a one-time link as a dashboard tab would, keeping its cookie.
func (h *hands) signIn() error {
	link := h.r.local.d.SignInLink()
	token := link.URL[strings.Index(link.URL, "#/signin/")+len("#/signin/"):]
	base := h.r.local.base()
	req, _ := http.NewRequest("POST", base+"/api/session", strings.NewReader(`{"token":"`+token+`"}`))
	req.Header.Set("Origin", base)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var env struct {
		Result messages.Me `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		return err
	}
	for _, c := range res.Cookies() {
		if c.Name == "buddi_session" {
			h.cookie = c.Value
		}
	}
	h.csrf = env.Result.CSRF
	if h.cookie == "" || h.csrf == "" {
		return refuse("the hands could not sign in to the dashboard (%s)", res.Status)
	}
	return nil
}

// loop drives hand i until ctx ends, taking over again whenever the hand
// ends (a stop-all, a release by the owner loop).
func (h *hands) loop(ctx context.Context, i int) {
	conv := fmt.Sprintf("h%05d", i)
	for ctx.Err() == nil {
		h.r.ownerCall("hand_take_over", "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: conv})
		h.drive(ctx, conv, h.links[i])
		h.ends.Add(1)
		sleep(ctx, 200*time.Millisecond)
	}
}

// tab is one hand socket's client side.
type tab struct {
	gws.BuiltinEventHandler
	h      *hands
	conv   string
	mu     sync.Mutex
	acked  uint32
	ackAt  time.Time
	closed chan struct{}
	once   sync.Once
}

func (h *hands) drive(ctx context.Context, conv string, l *slowlink.Link) {
	t := &tab{h: h, conv: conv, closed: make(chan struct{})}
	base := h.r.local.base()
	// Through the link, but under buddi's own host, as the browser would.
	hdr := http.Header{"Origin": {base}, "Host": {strings.TrimPrefix(base, "http://")}, "Cookie": {"buddi_session=" + h.cookie}}
	conn, _, err := gws.NewClient(t, &gws.ClientOption{Addr: "ws://" + l.Addr() + "/api/browser/hand?conversation=" + conv,
		RequestHeader: hdr, ReadMaxPayloadSize: handMaxFrame + handwire.FrameHeaderSize})
	if err != nil {
		return
	}
	go conn.ReadLoop()
	defer conn.NetConn().Close()
	_ = conn.WriteString(`{"t":"csrf","token":"` + h.csrf + `"}`)
	move := time.NewTicker(100 * time.Millisecond)
	defer move.Stop()
	for n := 0; ; n++ {
		select {
		case <-ctx.Done():
			return
		case <-t.closed:
			return
		case <-move.C:
			x, y := strconv.Itoa(10+n%500), strconv.Itoa(10+n%300)
			_ = conn.WriteString(`{"t":"move","x":` + x + `,"y":` + y + `}`)
			if n%20 == 0 {
				_ = conn.WriteString(`{"t":"down","x":` + x + `,"y":` + y + `,"b":"left"}`)
				_ = conn.WriteString(`{"t":"up","x":` + x + `,"y":` + y + `,"b":"left"}`)
			}
		}
	}
}

func (t *tab) OnClose(*gws.Conn, error) { t.once.Do(func() { close(t.closed) }) }

// OnMessage checks one frame and acks it.
func (t *tab) OnMessage(c *gws.Conn, m *gws.Message) {
	defer m.Close()
	if m.Opcode != gws.OpcodeBinary {
		var end struct {
			Error *messages.Error `json:"error"`
		}
		if json.Unmarshal(m.Bytes(), &end) == nil && end.Error != nil {
			t.h.r.stats.count(t.h.why, string(end.Error.Code))
		}
		return
	}
	now := time.Now()
	hd, jpg, err := handwire.DecodeFrame(m.Bytes())
	if err != nil {
		t.h.r.check.HandFrame(t.conv, "a binary message that is not a hand frame")
		return
	}
	t.mu.Lock()
	problem := ""
	age := now.Sub(time.UnixMicro(int64(hd.TimeMs * 1000)))
	switch {
	case hd.Seq != t.acked+1:
		problem = fmt.Sprintf("frame %d arrived while frame %d was the last acked", hd.Seq, t.acked)
	case len(jpg) > handMaxFrame:
		problem = fmt.Sprintf("frame %d is %d bytes", hd.Seq, len(jpg))
	case t.acked > 0 && age > now.Sub(t.ackAt)+time.Second/handFPS+handSlack:
		problem = fmt.Sprintf("frame %d was %s old, %s after the ack before it", hd.Seq, age.Round(time.Millisecond), now.Sub(t.ackAt).Round(time.Millisecond))
	}
	t.acked, t.ackAt = hd.Seq, time.Now()
	t.mu.Unlock()
	t.h.frames.Add(1)
	t.h.bytes.Add(int64(len(jpg) + handwire.FrameHeaderSize))
	t.h.ages.record(age)
	t.h.r.check.HandFrame(t.conv, problem)
	_ = c.WriteString(`{"t":"ack","seq":` + strconv.FormatUint(uint64(hd.Seq), 10) + `}`)
}

// HandsReport is what the remote hands saw.
type HandsReport struct {
	Hands          int              `json:"hands"`
	LinkKbps       int              `json:"linkKbps"`
	Frames         int64            `json:"frames"`
	BytesPerSecond float64          `json:"bytesPerSecondPerHand"`
	FramesPerSec   float64          `json:"framesPerSecondPerHand"`
	Age            Summary          `json:"frameAgeOnArrival"`
	Ended          int64            `json:"handsEnded"` // and taken over again
	EndedBy        map[string]int64 `json:"handsEndedBy,omitempty"`
}

func (h *hands) report(secs float64) *HandsReport {
	n := float64(max(h.r.cfg.Hands, 1)) * max(secs, 0.001)
	return &HandsReport{Hands: h.r.cfg.Hands, LinkKbps: h.r.cfg.LinkKbps, Frames: h.frames.Load(),
		BytesPerSecond: float64(h.bytes.Load()) / n, FramesPerSec: float64(h.frames.Load()) / n,
		Age: h.ages.summary(), Ended: h.ends.Load(), EndedBy: h.r.stats.snapshot(h.why)}
}

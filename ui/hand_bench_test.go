package ui_test

import (
	"bytes"
	"image/jpeg"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lxzan/gws"

	"github.com/buddi-dev/buddi/internal/slowlink"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// flipPage turns black or white on every press.
const flipPage = `<!doctype html><title>Flip</title><style>html,body{margin:0;height:100%;background:#fff}</style>
<script>let dark = false;
addEventListener('mousedown', () => { dark = !dark; document.body.style.background = dark ? '#000' : '#fff'; });</script>`

// busyFlipPage is flipPage with a page that never stops painting: a
// spinner and a counter redrawn on every animation frame, in a corner
// away from the middle the painter reads.
const busyFlipPage = `<!doctype html><title>Busy flip</title><style>html,body{margin:0;height:100%;background:#fff}
#spin{position:fixed;left:10px;top:10px;width:80px;height:80px;background:linear-gradient(90deg,#e33,#33e);animation:s 1s linear infinite}
#n{position:fixed;left:10px;top:100px;font:24px sans-serif;color:#888}
@keyframes s{to{transform:rotate(360deg)}}</style><div id="spin"></div><p id="n">0</p>
<script>let dark = false, n = 0;
addEventListener('mousedown', () => { dark = !dark; document.body.style.background = dark ? '#000' : '#fff'; });
const tick = () => { document.getElementById('n').textContent = String(++n); requestAnimationFrame(tick); }; tick();</script>`

// painter is a tab that decodes each frame (as drawing would), acks it,
// and says whether its middle is dark; it keeps each frame's age (from
// the page's paint to its arrival) and when it arrived.
type painter struct {
	gws.BuiltinEventHandler
	dark chan bool
	mu   sync.Mutex
	ages []time.Duration
	at   []time.Time
}

func (p *painter) OnMessage(c *gws.Conn, m *gws.Message) {
	defer m.Close()
	if m.Opcode != gws.OpcodeBinary {
		return
	}
	now := time.Now()
	h, jpg, err := handwire.DecodeFrame(m.Bytes())
	if err != nil {
		return
	}
	img, err := jpeg.Decode(bytes.NewReader(jpg))
	_ = c.WriteString(`{"t":"ack","seq":` + itoa(h.Seq) + `}`)
	if err != nil {
		return
	}
	p.mu.Lock()
	p.ages = append(p.ages, now.Sub(time.UnixMicro(int64(h.TimeMs*1000))))
	p.at = append(p.at, now)
	p.mu.Unlock()
	r, _, _, _ := img.At(img.Bounds().Dx()/2, img.Bounds().Dy()/2).RGBA()
	select {
	case p.dark <- r < 0x8000:
	default:
	}
}

// drawing takes c1 over on a page serving html and attaches a painter to
// its hand socket, through a link of kbps kilobits a second downstream
// (0: loopback as it is).
func drawing(b *testing.B, html string, kbps int) (*painter, *gws.Conn) {
	d, bs, _, _ := onAPage(b, htmlPage(html), "/flip")
	d.Must(b, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "c1"})
	link, err := slowlink.New(strings.TrimPrefix(bs.base, "http://"), kbps)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = link.Close() })
	p := &painter{dark: make(chan bool, 1024)}
	// Through the link, but under buddi's own host, as the browser would.
	hdr := http.Header{"Origin": {bs.base}, "Host": {strings.TrimPrefix(bs.base, "http://")}, "Cookie": {"buddi_session=" + bs.cookie}}
	conn, _, err := gws.NewClient(p, &gws.ClientOption{Addr: "ws://" + link.Addr() + "/api/browser/hand?conversation=c1",
		RequestHeader: hdr, ReadMaxPayloadSize: 4 << 20})
	if err != nil {
		b.Fatal(err)
	}
	go conn.ReadLoop()
	b.Cleanup(func() { _ = conn.NetConn().Close() })
	_ = conn.WriteString(`{"t":"csrf","token":"` + bs.csrf + `"}`)
	return p, conn
}

// tapToPaint presses the middle of the page b.N times and reports how
// long each press took to show in a picture the painter decoded.
func tapToPaint(b *testing.B, p *painter, conn *gws.Conn) {
	next := func(want bool) {
		for {
			select {
			case dark := <-p.dark:
				if dark == want {
					return
				}
			case <-time.After(30 * time.Second):
				b.Fatal("no picture showed the press")
			}
		}
	}
	next(false)
	var took []time.Duration
	dark := false
	b.ResetTimer()
	for range b.N {
		for len(p.dark) > 0 {
			<-p.dark
		}
		dark = !dark
		start := time.Now()
		_ = conn.WriteString(`{"t":"down","x":100,"y":100,"b":"left"}`)
		_ = conn.WriteString(`{"t":"up","x":100,"y":100,"b":"left"}`)
		next(dark)
		took = append(took, time.Since(start))
		time.Sleep(50 * time.Millisecond) // a person taps, looks, taps again
	}
	b.StopTimer()
	report(b, "tap", took)
}

// BenchmarkTapToPaint: from the owner's press on the hand socket to the
// first picture that shows its effect, decoded, on loopback with the
// agents' real Chromium, on a page that is still between presses and on
// one that never stops painting.
func BenchmarkTapToPaint(b *testing.B) {
	for name, html := range map[string]string{"static": flipPage, "animated": busyFlipPage} {
		b.Run(name, func(b *testing.B) {
			p, conn := drawing(b, html, 0)
			tapToPaint(b, p, conn)
		})
	}
}

// BenchmarkHandOnASlowLink: the pictures of a page that never stops
// painting reaching a tab behind a link of 1 Mbit/s and of 200 kbit/s:
// frames a second, their age on arrival, and tap to paint.
func BenchmarkHandOnASlowLink(b *testing.B) {
	for name, kbps := range map[string]int{"1Mbit": 1000, "200kbit": 200} {
		b.Run(name, func(b *testing.B) {
			p, conn := drawing(b, busyFlipPage, kbps)
			tapToPaint(b, p, conn)
			p.mu.Lock()
			defer p.mu.Unlock()
			// The frames of the run's second half: the quality step has settled.
			half := len(p.at) / 2
			if n := len(p.at) - half; n > 1 {
				secs := p.at[len(p.at)-1].Sub(p.at[half]).Seconds()
				b.ReportMetric(float64(n-1)/secs, "frames/s")
				report(b, "age", p.ages[half:])
			}
		})
	}
}

func report(b *testing.B, name string, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	b.ReportMetric(float64(s[len(s)/2].Microseconds())/1000, name+"-p50-ms")
	b.ReportMetric(float64(s[min(len(s)*99/100, len(s)-1)].Microseconds())/1000, name+"-p99-ms")
}

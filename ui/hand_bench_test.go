package ui_test

import (
	"bytes"
	"image/jpeg"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/lxzan/gws"

	"github.com/buddi-dev/buddi/messages"
)

// flipPage turns black or white on every press.
const flipPage = `<!doctype html><title>Flip</title><style>html,body{margin:0;height:100%;background:#fff}</style>
<script>let dark = false;
addEventListener('mousedown', () => { dark = !dark; document.body.style.background = dark ? '#000' : '#fff'; });</script>`

// painter is a tab that decodes each frame (as drawing would) and says
// whether its middle is dark.
type painter struct {
	gws.BuiltinEventHandler
	dark chan bool
}

func (p *painter) OnMessage(c *gws.Conn, m *gws.Message) {
	defer m.Close()
	if m.Opcode != gws.OpcodeBinary {
		return
	}
	h, jpg, err := messages.DecodeHandFrame(m.Bytes())
	if err != nil {
		return
	}
	img, err := jpeg.Decode(bytes.NewReader(jpg))
	_ = c.WriteString(`{"t":"ack","seq":` + itoa(h.Seq) + `}`)
	if err != nil {
		return
	}
	r, _, _, _ := img.At(img.Bounds().Dx()/2, img.Bounds().Dy()/2).RGBA()
	p.dark <- r < 0x8000
}

// BenchmarkInputToPaint: from the owner's press on the hand socket to the
// first picture that shows its effect, decoded, on loopback with the
// agents' real Chromium.
func BenchmarkInputToPaint(b *testing.B) {
	d, bs, _, _ := onAPage(b, htmlPage(flipPage), "/flip")
	d.Must(b, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "c1"})
	p := &painter{dark: make(chan bool, 1024)}
	hdr := http.Header{"Origin": {bs.base}, "Cookie": {"buddi_session=" + bs.cookie}}
	conn, _, err := gws.NewClient(p, &gws.ClientOption{Addr: "ws" + strings.TrimPrefix(bs.base, "http") +
		"/api/browser/hand?conversation=c1", RequestHeader: hdr})
	if err != nil {
		b.Fatal(err)
	}
	go conn.ReadLoop()
	defer conn.NetConn().Close()
	_ = conn.WriteString(`{"t":"csrf","token":"` + bs.csrf + `"}`)
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
	}
	b.StopTimer()
	sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[min(len(took)*99/100, len(took)-1)].Microseconds())/1000, "p99-ms")
}

package pacer_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/pacer"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
	"github.com/buddi-dev/buddi/messages/handwire"
)

// busyPage repaints a canvas of noise on every animation frame, so the
// screencast sends large frames as fast as Chromium makes them.
const busyPage = `<!doctype html><title>Busy</title><style>body{margin:0}</style>
<canvas id="c" width="1280" height="800"></canvas><script>
const g = document.getElementById('c').getContext('2d');
function draw() {
  for (let i = 0; i < 400; i++) {
    g.fillStyle = 'rgb(' + (Math.random()*255|0) + ',' + (Math.random()*255|0) + ',' + (Math.random()*255|0) + ')';
    g.fillRect(Math.random()*1280, Math.random()*800, 40, 40);
  }
  requestAnimationFrame(draw);
}
draw();
</script>`

// stillPage changes nothing once it has loaded.
const stillPage = `<!doctype html><title>Still</title><h1>Nothing moves here</h1><p>A page that paints once.</p>`

// busyPin pins a real Chromium page that never stops changing.
func busyPin(t testing.TB) drivers.Pinned {
	t.Helper()
	return pinPage(t, busyPage)
}

// pinPage pins a real Chromium page showing html.
func pinPage(t testing.TB, html string) drivers.Pinned {
	t.Helper()
	pin, _ := pinTabs(t, html)
	return pin
}

// pinTabs pins a real Chromium page showing html (at every path) and
// returns its tabs too.
func pinTabs(t testing.TB, html string) (drivers.Pinned, func(path string)) {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(html))
	}))
	t.Cleanup(site.Close)
	d := browsertest.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tabs, err := d.Open(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tabs.Do(ctx, &drivers.Action{Kind: drivers.Navigate, URL: site.URL + "/"}); err != nil {
		t.Fatal(err)
	}
	sc, _ := drivers.ScreencastOf(tabs)
	pin, err := sc.Pin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pin.Unpin)
	return pin, func(path string) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := tabs.Do(ctx, &drivers.Action{Kind: drivers.Navigate, URL: site.URL + path}); err != nil {
			t.Fatal(err)
		}
	}
}

// A viewer on a 1 Mbit/s link gets one frame at a time, each after its ack
// of the one before, and a reduced picture; once the link is fast again
// the full picture comes back. A naive sender on the same link leaves
// frames piling up between it and the viewer.
func TestOnASlowLinkTheViewerGetsOneFrameAtATimeAndQualitySteps(t *testing.T) {
	pin := busyPin(t)
	sys := actortest.System(t)

	naive := newServer(t, sys, pin, true, pacer.Config{Steps: pacer.Steps})
	nv := dialViewer(t, newSlowLink(t, naive.addr, 1000).Addr())
	piled := false
	for n := 0; !piled; n++ {
		select {
		case <-nv.got:
			piled = naive.sent.Load()-int64(n+1) > 10
		case <-time.After(time.Minute):
			t.Fatal("the naive sender's viewer got no frames")
		}
	}
	_ = nv.conn.NetConn().Close()
	if err := pin.StopCast(context.Background()); err != nil {
		t.Fatal(err)
	}

	srv := newServer(t, sys, pin, false, pacer.Config{})
	link := newSlowLink(t, srv.addr, 1000)
	v := dialViewer(t, link.Addr())
	wait := func(step uint8) {
		for {
			select {
			case h := <-v.got:
				if h.Step == step {
					return
				}
			case <-time.After(time.Minute):
				t.Fatalf("no frame at step %d", step)
			}
		}
	}
	wait(1)
	link.SetKbps(0)
	wait(0)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.bad != "" {
		t.Fatal(v.bad)
	}
	if got := srv.sent.Load(); got != int64(v.acked) && got != int64(v.acked)+1 {
		t.Fatalf("the pacer sent %d frames; the viewer has acked %d", got, v.acked)
	}
}

// A still page laid out again for a turned phone reaches the tab in its
// new shape, every time it turns: Chromium drops the first picture after a resize and, on a
// page that changes nothing, makes no other, so the pacer starts the
// screencast again when told the page was refitted.
func TestAStillPageLaidOutAgainReachesTheTabInItsNewShape(t *testing.T) {
	pin, visit := pinTabs(t, stillPage)
	fit, ok := drivers.FitterOf(pin)
	if !ok {
		t.Fatal("the agents' Chromium cannot lay a pinned page out for a screen")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := fit.Fit(ctx, 375, 733); err != nil {
		t.Fatal(err)
	}
	sys := actortest.System(t)
	s := &screen{frames: make(chan handwire.FrameHeader, 64)}
	p := sys.Root.Spawn(pacer.Props(pacer.Config{Pin: pin, Screen: s}))
	shape := func(w, h uint16) {
		t.Helper()
		for {
			select {
			case got := <-s.frames:
				sys.Root.Send(p, &pacer.Ack{Seq: got.Seq})
				if got.PageWidth == w && got.PageHeight == h {
					return
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("no picture of the page at %dx%d", w, h)
			}
		}
	}
	shape(375, 733)
	visit("/arrived")
	// Turned back and forth, each time once the page has stopped painting
	// (Chromium drops the resize's picture only sometimes).
	for i := range 6 {
		for quiet := false; !quiet; {
			select {
			case got := <-s.frames:
				sys.Root.Send(p, &pacer.Ack{Seq: got.Seq})
			case <-time.After(150 * time.Millisecond):
				quiet = true
			}
		}
		w, h := 812, 279
		if i%2 == 1 {
			w, h = 375, 733
		}
		if err := fit.Fit(ctx, w, h); err != nil {
			t.Fatal(err)
		}
		sys.Root.Send(p, &pacer.Refit{Width: w, Height: h})
		shape(uint16(w), uint16(h))
	}
}

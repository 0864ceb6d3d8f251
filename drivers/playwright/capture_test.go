package playwright_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
)

func TestScreenshotIsCapped(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Shot", `<h1 style="height:3000px">tall</h1>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	for _, full := range []bool{false, true} {
		out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Screenshot, FullRes: full})
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(out.Image))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width != out.Width || cfg.Height != out.Height || max(cfg.Width, cfg.Height) > 1280 || cfg.Width == 0 {
			t.Fatalf("full=%v: %dx%d reported as %dx%d", full, cfg.Width, cfg.Height, out.Width, out.Height)
		}
	}
	if obs := observe(t, tabs, drivers.ObserveOptions{Screenshot: true}); len(obs.Screenshot) == 0 {
		t.Fatal("observe sent no screenshot")
	}
}

// Larger captures (a wide viewport, a high-density screen) are scaled down
// to the cap.
func TestShrinkCapsTheLongestEdge(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3000, 1000))
	for x := range 3000 {
		img.Set(x, 500, color.White)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	var tall bytes.Buffer
	if err := jpeg.Encode(&tall, image.NewGray(image.Rect(0, 0, 900, 5000)), nil); err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		src  []byte
		edge int
		want [2]int
	}{"wide": {buf.Bytes(), 1280, [2]int{1280, 426}}, "tall": {tall.Bytes(), 4096, [2]int{737, 4096}}}
	for name, c := range cases {
		edge, want := c.edge, c.want
		jpg, w, h, err := playwright.Shrink(c.src, edge)
		if err != nil {
			t.Fatal(err)
		}
		cfg, _ := jpeg.DecodeConfig(bytes.NewReader(jpg))
		if w != want[0] || h != want[1] || cfg.Width != w || cfg.Height != h {
			t.Fatalf("%s: got %dx%d (%dx%d), want %v", name, w, h, cfg.Width, cfg.Height, want)
		}
	}
}

func TestDOMTextIsCapped(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Text", `<style>p{color:red}</style><script>var secret = "script-text";</script><p>`+strings.Repeat("word ", 3000)+`</p>`)
	tabs := openConv(t, d, t.Name())
	navigate(t, tabs, s.URL+"/p")
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM, MaxChars: 1000})
	if len(out.Text) > 1100 || !strings.HasPrefix(out.Text, "word word") || !strings.Contains(out.Text, "(cut at 1000 characters)") {
		t.Fatalf("dom text (%d chars): %q", len(out.Text), out.Text)
	}
	out = mustDo(t, tabs, &drivers.Action{Kind: drivers.DOM})
	if len(out.Text) > 8100 || strings.Contains(out.Text, "script-text") || strings.Contains(out.Text, "color:red") {
		t.Fatalf("dom text (%d chars) has scripts or styles or is not capped", len(out.Text))
	}
}

func TestConsoleErrors(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/p", "Console", `<script>console.log("fine"); console.error("boom one"); setTimeout(() => { throw new Error("boom two") }, 0)</script>`)
	tabs := openConv(t, d, t.Name())
	out := mustDo(t, tabs, &drivers.Action{Kind: drivers.Console})
	if out.Text != "No console errors since the tab opened." {
		t.Fatalf("fresh tab: %q", out.Text)
	}
	navigate(t, tabs, s.URL+"/p")
	mustDo(t, tabs, &drivers.Action{Kind: drivers.WaitFor, Wait: &drivers.WaitCond{Load: true}})
	out = mustDo(t, tabs, &drivers.Action{Kind: drivers.Console})
	if !strings.Contains(out.Text, "console.error: boom one") || !strings.Contains(out.Text, "uncaught: ") || !strings.Contains(out.Text, "boom two") || strings.Contains(out.Text, "fine") {
		t.Fatalf("console: %q", out.Text)
	}
}

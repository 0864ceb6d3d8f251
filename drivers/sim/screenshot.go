package sim

import (
	"bytes"
	"image"
	"image/jpeg"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
)

// Screenshots are one grey page mock-up per size bucket, encoded on first
// use and shared by every driver. Each bucket is the longest edge of a
// 16:10 viewport.
var (
	edges = [...]int{320, 640, 1280, 4096}
	shots [len(edges)]struct {
		once sync.Once
		jpg  []byte
	}
)

const (
	viewportEdge = 1280
	fullResEdge  = 4096
)

// shot is the shared JPEG of the smallest bucket at least edge wide (the
// largest bucket past it). Callers must not modify it; its capacity is
// cut to its length, so an append makes a copy of its own.
func shot(edge int) (jpg []byte, w, h int) {
	i := 0
	for i < len(edges)-1 && edges[i] < edge {
		i++
	}
	w, h = edges[i], edges[i]*10/16
	s := &shots[i]
	s.once.Do(func() { s.jpg = mockup(w, h) })
	return s.jpg[:len(s.jpg):len(s.jpg)], w, h
}

// screenshot is the viewport (or full-resolution) shot, shared as shot
// shares it: buddi reads a driver's pictures and never writes into them,
// and a private copy of each owner's picture was a quarter of the bytes a
// load test allocated (1,000 conversations, 10,000 acts/s).
func screenshot(fullRes bool) ([]byte, int, int) {
	edge := viewportEdge
	if fullRes {
		edge = fullResEdge
	}
	return shot(edge)
}

// mockup draws a white page with grey bars for a header and lines of text.
func mockup(w, h int) []byte {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 248
	}
	bar := func(x0, y0, x1, y1 int, c uint8) {
		for y := y0; y < y1 && y < h; y++ {
			row := img.Pix[y*img.Stride:]
			for x := x0; x < x1 && x < w; x++ {
				row[x] = c
			}
		}
	}
	bar(0, 0, w, h/12, 60)
	line := max(h/60, 1)
	for y := h / 6; y+line < h; y += 3 * line {
		bar(w/12, y, w/12+(w*(5+y%4))/12, y+line, 150)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 40}); err != nil {
		panic(err) // encoding to memory cannot fail
	}
	return buf.Bytes()
}

func (t *Tabs) capture(a *drivers.Action) (*drivers.Outcome, error) {
	p, err := t.activePage()
	if err != nil {
		return nil, err
	}
	img, w, h := screenshot(a.FullRes)
	return &drivers.Outcome{Result: drivers.Done, URL: p.url, Title: p.title, Image: img, Width: w, Height: h}, nil
}

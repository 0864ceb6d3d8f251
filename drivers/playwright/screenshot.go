package playwright

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// Screenshot bounds: the longest edge, in pixels.
const (
	shotEdge     = 1280
	shotEdgeFull = 4096
	shotQuality  = 75
)

type shot struct {
	jpeg          []byte
	width, height int
}

// maskColor covers what a screenshot must not show.
const maskColor = "#c8c8c8"

// screenshot captures the viewport as a JPEG in CSS pixels, scaled down so
// that its longest edge is at most 1280 px (4096 px with full). Fields whose
// values reads mask (credential fields, values that look like keys) are
// covered in every frame.
//
// A text caret is captured as it is. Hiding it (Playwright's default)
// walks every element of every frame for shadow roots, then restyles each
// field before the capture and again after it, so the next read of a long
// page waited for the styles to be worked out afresh (Python's os module
// here, p50: the owner's picture 116 → 94 ms, an observation right after
// it 28 → 14 ms).
func (t *tab) screenshot(ctx context.Context, full bool) (*shot, error) {
	edge := shotEdge
	if full {
		edge = shotEdgeFull
	}
	raw, err := call(ctx, func() ([]byte, error) {
		return t.page.Screenshot(pw.PageScreenshotOptions{Type: pw.ScreenshotTypeJpeg, Quality: pw.Int(shotQuality),
			Scale: pw.ScreenshotScaleCss, Caret: pw.ScreenshotCaretInitial, Timeout: ms(ctx, 10*time.Second),
			Mask: t.masked(), MaskColor: pw.String(maskColor)})
	})
	if err != nil {
		return nil, err
	}
	cfg, err := jpeg.DecodeConfig(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	if max(cfg.Width, cfg.Height) <= edge {
		return &shot{raw, cfg.Width, cfg.Height}, nil
	}
	return shrink(raw, edge)
}

// shrink scales a JPEG down so that its longest edge is edge, averaging
// the source pixels each target pixel covers.
func shrink(raw []byte, edge int) (*shot, error) {
	src, err := jpeg.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	tw, th := edge, h*edge/w
	if h > w {
		tw, th = w*edge/h, edge
	}
	dst := image.NewRGBA(image.Rect(0, 0, max(tw, 1), max(th, 1)))
	for y := range dst.Rect.Dy() {
		y0, y1 := y*h/th, max((y+1)*h/th, y*h/th+1)
		for x := range dst.Rect.Dx() {
			x0, x1 := x*w/tw, max((x+1)*w/tw, x*w/tw+1)
			dst.Set(x, y, average(src, b.Min, x0, y0, x1, y1))
		}
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: shotQuality}); err != nil {
		return nil, err
	}
	return &shot{out.Bytes(), dst.Rect.Dx(), dst.Rect.Dy()}, nil
}

// masked locates, in every frame of the tab, the fields reads mask.
func (t *tab) masked() []pw.Locator {
	var out []pw.Locator
	for _, f := range t.page.Frames() {
		if !f.IsDetached() {
			out = append(out, f.Locator(engineName+"=masked"))
		}
	}
	return out
}

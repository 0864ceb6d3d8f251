package extension

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"

	"github.com/buddi-dev/buddi/drivers"
)

// Screenshot bounds, the Playwright driver's: the longest edge in pixels.
const (
	shotEdge     = 1280
	shotEdgeFull = 4096
	shotQuality  = 75
)

// maskGray covers what a screenshot must not show.
var maskGray = color.RGBA{0xc8, 0xc8, 0xc8, 0xff}

type shot struct {
	jpeg          []byte
	width, height int
}

// view is the viewport in CSS pixels, the device's pixel ratio, and the
// boxes of the fields reads mask (credential fields, values like keys).
type view struct {
	W, H, DPR float64
	Masks     [][4]float64
}

const viewExpr = `(() => ({W: innerWidth, H: innerHeight, DPR: devicePixelRatio || 1,
  Masks: Array.from(__buddi.queryAll(document, 'masked')).map((el) => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })}))()`

// shoot captures tab's viewport as a JPEG whose longest edge is at most
// 1280 px (4096 with full), Chrome scaling it, masked fields covered.
func (ts *Tabs) shoot(ctx context.Context, tab int, full bool) (*shot, error) {
	var v view
	if err := ts.eval(ctx, tab, viewExpr, false, &v); err != nil {
		return nil, err
	}
	if v.W <= 0 || v.H <= 0 {
		return nil, notAnswering(nil)
	}
	edge := float64(shotEdge)
	if full {
		edge = shotEdgeFull
	}
	scale := min(1, edge/max(v.W, v.H)) / max(v.DPR, 1)
	var ans struct {
		Data string `json:"data"`
	}
	clip := map[string]any{"x": 0, "y": 0, "width": v.W, "height": v.H, "scale": scale * max(v.DPR, 1)}
	if err := ts.cdp(ctx, tab, "Page.captureScreenshot", map[string]any{"format": "jpeg", "quality": shotQuality, "clip": clip}, false, &ans); err != nil {
		return nil, err
	}
	raw, err := base64.StdEncoding.DecodeString(ans.Data)
	if err != nil {
		return nil, notAnswering(err)
	}
	return mask(raw, v)
}

// mask paints the masked boxes over the picture.
func mask(raw []byte, v view) (*shot, error) {
	img, err := jpeg.Decode(bytes.NewReader(raw))
	if err != nil {
		return nil, notAnswering(err)
	}
	b := img.Bounds()
	if len(v.Masks) == 0 {
		return &shot{raw, b.Dx(), b.Dy()}, nil
	}
	k := float64(b.Dx()) / v.W
	dst := image.NewRGBA(b)
	draw.Draw(dst, b, img, b.Min, draw.Src)
	for _, m := range v.Masks {
		r := image.Rect(int(m[0]*k), int(m[1]*k), int((m[0]+m[2])*k)+1, int((m[1]+m[3])*k)+1).Intersect(b)
		draw.Draw(dst, r, &image.Uniform{C: maskGray}, image.Point{}, draw.Src)
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: shotQuality}); err != nil {
		return nil, notAnswering(err)
	}
	return &shot{out.Bytes(), b.Dx(), b.Dy()}, nil
}

func (ts *Tabs) screenshot(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	s, err := ts.shoot(ctx, ts.current(), a.FullRes)
	if err != nil {
		return nil, err
	}
	return &drivers.Outcome{Result: drivers.Done, Image: s.jpeg, Width: s.width, Height: s.height}, nil
}

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
	"github.com/buddi-dev/buddi/drivers/cdp"
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

// view is the viewport in CSS pixels, the device's pixel ratio, the
// boxes of the fields reads mask (credential fields, values like keys),
// and how many frames the page holds.
type view struct {
	W, H, DPR float64
	Masks     [][4]float64
	Frames    int
}

// masksExpr lists the boxes of a document's masked fields, in its viewport.
const masksExpr = `Array.from(__buddi.queryAll(document, 'masked')).map((el) => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })`

const viewExpr = `({W: innerWidth, H: innerHeight, DPR: devicePixelRatio || 1, Frames: window.length, Masks: ` + masksExpr + `})`

// shoot captures tab's viewport as a JPEG whose longest edge is at most
// 1280 px (4096 with full), Chrome scaling it, masked fields covered, in
// the page and in its frames.
func (ts *Tabs) shoot(ctx context.Context, tab int, full bool) (*shot, error) {
	var v view
	if err := ts.eval(ctx, tab, viewExpr, false, &v); err != nil {
		return nil, err
	}
	if v.W <= 0 || v.H <= 0 {
		return nil, notAnswering(nil)
	}
	if v.Frames > 0 {
		framed, err := ts.framedMasks(ctx, tab)
		if err != nil {
			return nil, err
		}
		v.Masks = append(v.Masks, framed...)
	}
	edge := float64(shotEdge)
	if full {
		edge = shotEdgeFull
	}
	scale := min(1, edge/max(v.W, v.H)) / max(v.DPR, 1)
	var ans struct {
		Data string `json:"data"`
	}
	shot := cdp.CaptureScreenshot{Format: "jpeg", Quality: shotQuality,
		Clip: &cdp.Viewport{Width: v.W, Height: v.H, Scale: scale * max(v.DPR, 1)}}
	if err := ts.cdp(ctx, tab, shot, false, &ans); err != nil {
		return nil, err
	}
	raw, err := base64.StdEncoding.DecodeString(ans.Data)
	if err != nil {
		return nil, notAnswering(err)
	}
	return mask(raw, v)
}

// framedMasks are the boxes of the masked fields of every frame of the
// tab, in the page's viewport. A frame that does not answer is covered
// whole, since what it shows cannot be checked; one that went away
// meanwhile shows nothing.
func (ts *Tabs) framedMasks(ctx context.Context, tab int) ([][4]float64, error) {
	list, err := ts.frameList(ctx, tab)
	if err != nil {
		return nil, err
	}
	byID := map[string]frameInfo{}
	for _, f := range list {
		byID[f.ID] = f
	}
	boxes := map[string]frameBox{"": {}}
	var place func(id string) (frameBox, error)
	place = func(id string) (frameBox, error) {
		if b, ok := boxes[id]; ok {
			return b, nil
		}
		up, err := place(byID[id].Parent)
		if err != nil {
			return up, err
		}
		var b frameBox
		if _, err := ts.onOwner(ctx, at{tab, id}, ownerBox, nil, false, &b); err != nil {
			return b, err
		}
		b.X, b.Y = b.X+up.X, b.Y+up.Y
		boxes[id] = b
		return b, nil
	}
	var out [][4]float64
	for _, f := range list {
		b, err := place(f.ID)
		if err != nil {
			continue // gone
		}
		var masks [][4]float64
		if _, err := ts.evalIn(ctx, at{tab, f.ID}, masksExpr, false, &masks); err != nil {
			out = append(out, [4]float64{b.X, b.Y, b.W, b.H})
			continue
		}
		for _, m := range masks {
			out = append(out, [4]float64{m[0] + b.X, m[1] + b.Y, m[2], m[3]})
		}
	}
	return out, nil
}

// frameBox is where a frame's viewport is in its parent's, or the page's.
type frameBox struct{ X, Y, W, H float64 }

// ownerBox is the box of the frame's viewport in its parent's viewport,
// with nothing scrolled.
const ownerBox = `function () {
  const r = this.getBoundingClientRect(), cs = getComputedStyle(this);
  return {X: r.left + this.clientLeft + parseFloat(cs.paddingLeft), Y: r.top + this.clientTop + parseFloat(cs.paddingTop),
    W: this.clientWidth, H: this.clientHeight};
}`

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

package session

import (
	"bytes"
	"image"
	"image/jpeg"
)

// Sizes of the smaller copies of a screenshot the session keeps: the
// thumbnails of the agent's screenshots, and the owner's snapshot.
const (
	thumbEdge    = 320
	thumbQuality = 60
	snapEdge     = 800
	snapQuality  = 70
)

// thumbnail returns a small JPEG of a screenshot, or nil when it cannot be
// read. It runs off the mailbox, in the goroutine that took the screenshot.
func thumbnail(img []byte) []byte { return scaled(img, thumbEdge, thumbQuality) }

// scaled returns img with its longest edge at most edge pixels, or nil when
// it cannot be read.
func scaled(img []byte, edge, quality int) []byte {
	src, err := jpeg.Decode(bytes.NewReader(img))
	if err != nil {
		return nil
	}
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w == 0 || h == 0 {
		return nil
	}
	scale := float64(edge) / float64(max(w, h))
	if scale > 1 {
		scale = 1
	}
	tw, th := max(1, int(float64(w)*scale)), max(1, int(float64(h)*scale))
	dst := image.NewRGBA(image.Rect(0, 0, tw, th))
	for y := 0; y < th; y++ {
		sy := b.Min.Y + y*h/th
		for x := 0; x < tw; x++ {
			dst.Set(x, y, src.At(b.Min.X+x*w/tw, sy))
		}
	}
	var out bytes.Buffer
	if err := jpeg.Encode(&out, dst, &jpeg.Options{Quality: quality}); err != nil {
		return nil
	}
	return out.Bytes()
}

package playwright

import (
	"image"
	"image/color"
)

// average is the mean colour of src over [x0,x1)×[y0,y1), offset by origin.
func average(src image.Image, origin image.Point, x0, y0, x1, y1 int) color.RGBA {
	var r, g, b, n uint32
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			cr, cg, cb, _ := src.At(origin.X+x, origin.Y+y).RGBA()
			r, g, b, n = r+cr, g+cg, b+cb, n+1
		}
	}
	if n == 0 {
		return color.RGBA{A: 255}
	}
	return color.RGBA{R: uint8(r / n >> 8), G: uint8(g / n >> 8), B: uint8(b / n >> 8), A: 255}
}

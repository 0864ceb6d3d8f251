package linux

import (
	"fmt"
	"image"

	"github.com/jezek/xgb/xproto"

	"github.com/buddi-dev/buddi/native/protocol"
)

// capture reads the pixels of rect (relative to w) of window w. Only that
// window's area is read, never the rest of the screen. On a server without
// a compositor, parts of w that another window covers read as that window.
func (d *display) capture(w xproto.Window, rect protocol.Rect) (*image.RGBA, error) {
	if rect.W <= 0 || rect.H <= 0 || rect.W > protocol.MaxScreenshotSide*2 || rect.H > protocol.MaxScreenshotSide*2 {
		return nil, fmt.Errorf("a window of %d×%d cannot be captured", rect.W, rect.H)
	}
	bpp, err := d.bitsPerPixel(w)
	if err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, rect.W, rect.H))
	// Read in bands so that no reply exceeds the core protocol's size.
	band := max(1, (4<<20)/(rect.W*4))
	for y := 0; y < rect.H; y += band {
		h := min(band, rect.H-y)
		r, err := xproto.GetImage(d.c, xproto.ImageFormatZPixmap, xproto.Drawable(w),
			int16(rect.X), int16(rect.Y+y), uint16(rect.W), uint16(h), 0xffffffff).Reply()
		if err != nil {
			return nil, err
		}
		if err := d.convert(img, y, h, r.Data, bpp); err != nil {
			return nil, err
		}
	}
	return img, nil
}

// bitsPerPixel is the pixel size of w's depth; only 24- and 32-bit
// true-colour visuals stored in 32 bits are read.
func (d *display) bitsPerPixel(w xproto.Window) (int, error) {
	g, err := xproto.GetGeometry(d.c, xproto.Drawable(w)).Reply()
	if err != nil {
		return 0, err
	}
	for _, f := range d.setup.PixmapFormats {
		if f.Depth == g.Depth {
			if f.BitsPerPixel != 32 || (g.Depth != 24 && g.Depth != 32) {
				return 0, fmt.Errorf("a display of depth %d at %d bits per pixel is not supported", g.Depth, f.BitsPerPixel)
			}
			return int(f.BitsPerPixel), nil
		}
	}
	return 0, fmt.Errorf("no pixmap format for depth %d", g.Depth)
}

// convert copies h rows of 32-bit pixels (blue, green, red, pad in the
// server's image byte order) into img from row y, opaque.
func (d *display) convert(img *image.RGBA, y, h int, data []byte, bpp int) error {
	w := img.Rect.Dx()
	stride := w * bpp / 8
	if len(data) < stride*h {
		return fmt.Errorf("the server sent %d bytes for %d rows", len(data), h)
	}
	lsb := d.setup.ImageByteOrder == xproto.ImageOrderLSBFirst
	for row := range h {
		src := data[row*stride:]
		dst := img.Pix[img.PixOffset(0, y+row):]
		for x := range w {
			p := src[x*4 : x*4+4]
			if lsb {
				dst[x*4], dst[x*4+1], dst[x*4+2] = p[2], p[1], p[0]
			} else {
				dst[x*4], dst[x*4+1], dst[x*4+2] = p[1], p[2], p[3]
			}
			dst[x*4+3] = 0xff
		}
	}
	return nil
}

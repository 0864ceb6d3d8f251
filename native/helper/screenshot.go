package helper

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"image/png"

	"github.com/buddi-dev/buddi/native/protocol"
)

// encodeScreenshot encodes a captured window within the protocol's limits:
// PNG when it fits, else JPEG, halving the picture until it fits. The hash
// is of the captured pixels, before any of that, so that a later capture of
// the same pixels compares equal.
func encodeScreenshot(img *image.RGBA, scale float64) (protocol.Screenshot, error) {
	hash := PixelHash(img)
	for img.Bounds().Dx() > protocol.MaxScreenshotSide || img.Bounds().Dy() > protocol.MaxScreenshotSide {
		img, scale = half(img), scale/2
	}
	for {
		b := img.Bounds()
		if data, ok := encodePNG(img); ok {
			return protocol.Screenshot{Format: "png", Width: b.Dx(), Height: b.Dy(), Scale: scale, Data: data, Hash: hash}, nil
		}
		if data, ok := encodeJPEG(img); ok {
			return protocol.Screenshot{Format: "jpeg", Width: b.Dx(), Height: b.Dy(), Scale: scale, Data: data, Hash: hash}, nil
		}
		if b.Dx() < 64 || b.Dy() < 64 {
			return protocol.Screenshot{}, errors.New("the screenshot does not fit the size limit")
		}
		img, scale = half(img), scale/2
	}
}

func encodePNG(img *image.RGBA) ([]byte, bool) {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, false
	}
	return buf.Bytes(), buf.Len() <= protocol.MaxScreenshotBytes
}

func encodeJPEG(img *image.RGBA) ([]byte, bool) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		return nil, false
	}
	return buf.Bytes(), buf.Len() <= protocol.MaxScreenshotBytes
}

// half scales img to half its size, averaging each 2×2 block.
func half(img *image.RGBA) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, max(b.Dx()/2, 1), max(b.Dy()/2, 1)))
	for y := 0; y < out.Rect.Dy(); y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			for c := 0; c < 4; c++ {
				sum := 0
				for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
					sx, sy := min(b.Min.X+2*x+d[0], b.Max.X-1), min(b.Min.Y+2*y+d[1], b.Max.Y-1)
					sum += int(img.Pix[img.PixOffset(sx, sy)+c])
				}
				out.Pix[out.PixOffset(x, y)+c] = uint8(sum / 4)
			}
		}
	}
	return out
}

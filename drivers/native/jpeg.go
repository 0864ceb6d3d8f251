package native

import (
	"bytes"
	"image"
	"image/jpeg"
	_ "image/png" // the helpers capture PNG
)

// jpegOf re-encodes a window's picture as the JPEG the screenshot action
// returns in every mode.
func jpegOf(data []byte) ([]byte, error) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

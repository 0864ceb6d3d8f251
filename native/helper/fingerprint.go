package helper

import (
	"crypto/sha256"
	"encoding/hex"
	"image"
	"strconv"
)

// WindowFingerprint identifies a window across calls: the platform's window
// id, the process and the app. The title and the frame are left out, so a
// page title changing or the window moving is still the same window.
func WindowFingerprint(id string, pid int, appID string) string {
	return "w1:" + digest("w1", id, strconv.Itoa(pid), appID)
}

// ElementFingerprint identifies an element of a window: the window, its
// locator, its role and its name. Its value and position are left out, so
// typing into a field or a layout change does not make the ref stale; a
// button relabelled from Play to Pause does.
func ElementFingerprint(window, locator, role, name string) string {
	return "e1:" + digest("e1", window, locator, role, name)
}

// PixelHash is the hash of captured pixels that a pixel click compares.
func PixelHash(img *image.RGBA) string {
	h := sha256.New()
	b := img.Bounds()
	h.Write([]byte(strconv.Itoa(b.Dx()) + "x" + strconv.Itoa(b.Dy()) + "\x00"))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		i := img.PixOffset(b.Min.X, y)
		h.Write(img.Pix[i : i+4*b.Dx()])
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

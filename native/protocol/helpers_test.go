package protocol_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/native/protocol"
)

// pngOf encodes a w×h image.
func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(1, 1, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const (
	windowFP = "w1:0123456789abcdef0123456789abcdef"
	elemFP   = "e1:0123456789abcdef0123456789abcdef"
	shotHash = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
)

func validWindow() protocol.Window {
	return protocol.Window{ID: "x11:0x200004", Title: "Calculator", AppID: "org.gnome.Calculator",
		AppName: "Calculator", PID: 42, Frame: protocol.Rect{X: 5, Y: 5, W: 40, H: 30}, Fingerprint: windowFP}
}

// validObservation is an observation every check accepts.
func validObservation(t testing.TB) *protocol.Observation {
	t.Helper()
	return &protocol.Observation{
		ObservedAt: time.Date(2026, 1, 2, 12, 4, 35, 0, time.UTC),
		Window:     validWindow(),
		Nodes: []protocol.Node{
			{Ref: "ax1", Role: "window", Name: "Calculator", Depth: 0, Box: protocol.Rect{W: 40, H: 30}, Locator: ":1.0/a", Fingerprint: elemFP},
			{Ref: "ax2", Role: "button", Name: "7", Depth: 1, Box: protocol.Rect{X: 1, Y: 1, W: 5, H: 5}, Locator: ":1.0/b", Fingerprint: elemFP},
			{Ref: "ax3", Role: "textbox", Value: "12", Depth: 1, States: []protocol.State{protocol.StateFocused, protocol.StateEditable}, Locator: ":1.0/c", Fingerprint: elemFP},
			{Ref: "ax4", Role: "textbox", Name: "Password", Secure: true, Depth: 2, Locator: ":1.0/d", Fingerprint: elemFP},
		},
		Screenshot: protocol.Screenshot{Format: "png", Width: 40, Height: 30, Scale: 1, Data: pngOf(t, 40, 30), Hash: shotHash},
	}
}

func encode(t testing.TB, r *protocol.Response) []byte {
	t.Helper()
	r.V = protocol.Version
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

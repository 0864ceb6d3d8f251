package handwire_test

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/messages/handwire"
)

func FuzzDecodeInput(f *testing.F) {
	for _, s := range []string{
		`{"t":"move","x":1,"y":2}`, `{"t":"down","x":1,"y":2,"b":"left"}`, `{"t":"wheel","x":1,"y":2,"dy":-120}`,
		`{"t":"keydown","k":"Shift"}`, `{"t":"char","k":"é"}`, `{"t":"char","k":"ab"}`, `{"t":"ack","seq":7}`,
		`{"t":"csrf","token":"abc"}`, `{"t":"csrf","token":"abc","w":375,"h":700,"take":true}`, `{"t":"view","w":700,"h":375}`,
		`{"t":"view","w":7,"h":375}`, `{"t":"csrf","token":"abc","w":375}`, `{"t":"move","x":1e308,"y":2}`, `{"t":"nope"}`, `{}`, `[]`, `{"t":"move","x":1,"y":2}{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, err := handwire.DecodeInput(b)
		if (in == nil) == (err == nil) {
			t.Fatalf("decode gave %+v and %+v", in, err)
		}
		if err != nil {
			var e *handwire.Refusal
			// Short input may appear in a refusal by chance (" no" in "not");
			// what was typed must not be echoed back.
			if !errors.As(err, &e) || e.Reason == "" || (len(b) > 12 && strings.Contains(e.Reason, string(b))) {
				t.Fatalf("refusal %+v", e)
			}
			return
		}
		if len(b) > handwire.InputMax {
			t.Fatal("an oversized message was accepted")
		}
		switch in.Kind {
		case handwire.Char:
			if utf8.RuneCountInString(in.Key) != 1 {
				t.Fatalf("typed key %q is not one character", in.Key)
			}
		case handwire.KeyDown, handwire.KeyUp:
			if !handwire.Keys[in.Key] {
				t.Fatalf("key %q is off the allow list", in.Key)
			}
		case handwire.View, handwire.CSRF:
			if (in.W == 0) != (in.H == 0) || in.W != 0 && (in.W < handwire.ViewMin || in.W > handwire.ViewMax ||
				in.H < handwire.ViewMin || in.H > handwire.ViewMax) || in.Kind == handwire.View && in.W == 0 {
				t.Fatalf("screen size %dx%d", in.W, in.H)
			}
		case handwire.Move, handwire.Down, handwire.Up, handwire.Wheel:
			if in.X != in.X || in.Y != in.Y || in.X > 1e6 || in.X < -1e6 || in.DY > 5000 || in.DY < -5000 {
				t.Fatalf("position %+v", in)
			}
		}
	})
}

func TestFrameRoundTrips(t *testing.T) {
	h := handwire.FrameHeader{Step: 1, Seq: 9, TimeMs: 1.5e12, PageWidth: 1280, PageHeight: 800, Scale: 1, ScrollY: 300}
	got, jpg, err := handwire.DecodeFrame(handwire.EncodeFrame(h, []byte{0xFF, 0xD8}))
	if err != nil || got != h || len(jpg) != 2 {
		t.Fatalf("round trip: %+v %v %v", got, jpg, err)
	}
	if _, _, err := handwire.DecodeFrame([]byte{1, 2}); err == nil {
		t.Fatal("a short message decoded as a frame")
	}
}

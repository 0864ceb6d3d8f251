package messages_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/messages"
)

func FuzzDecodeHandInput(f *testing.F) {
	for _, s := range []string{
		`{"t":"move","x":1,"y":2}`, `{"t":"down","x":1,"y":2,"b":"left"}`, `{"t":"wheel","x":1,"y":2,"dy":-120}`,
		`{"t":"keydown","k":"Shift"}`, `{"t":"char","k":"é"}`, `{"t":"char","k":"ab"}`, `{"t":"ack","seq":7}`,
		`{"t":"csrf","token":"abc"}`, `{"t":"csrf","token":"abc","w":375,"h":700,"take":true}`, `{"t":"view","w":700,"h":375}`,
		`{"t":"view","w":7,"h":375}`, `{"t":"csrf","token":"abc","w":375}`, `{"t":"move","x":1e308,"y":2}`, `{"t":"nope"}`, `{}`, `[]`, `{"t":"move","x":1,"y":2}{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in, e := messages.DecodeHandInput(b)
		if (in == nil) == (e == nil) {
			t.Fatalf("decode gave %+v and %+v", in, e)
		}
		if e != nil {
			// Short input may appear in a refusal by chance (" no" in "not");
			// what was typed must not be echoed back.
			if e.Code != messages.CodeBadInput || e.Message == "" || (len(b) > 12 && strings.Contains(e.Message, string(b))) {
				t.Fatalf("refusal %+v", e)
			}
			return
		}
		if len(b) > messages.HandInputMax {
			t.Fatal("an oversized message was accepted")
		}
		switch in.Kind {
		case messages.HandChar:
			if utf8.RuneCountInString(in.Key) != 1 {
				t.Fatalf("typed key %q is not one character", in.Key)
			}
		case messages.HandKeyDown, messages.HandKeyUp:
			if !messages.HandKeys[in.Key] {
				t.Fatalf("key %q is off the allow list", in.Key)
			}
		case messages.HandView, messages.HandCSRF:
			if (in.W == 0) != (in.H == 0) || in.W != 0 && (in.W < messages.HandViewMin || in.W > messages.HandViewMax ||
				in.H < messages.HandViewMin || in.H > messages.HandViewMax) || in.Kind == messages.HandView && in.W == 0 {
				t.Fatalf("screen size %dx%d", in.W, in.H)
			}
		case messages.HandMove, messages.HandDown, messages.HandUp, messages.HandWheel:
			if in.X != in.X || in.Y != in.Y || in.X > 1e6 || in.X < -1e6 || in.DY > 5000 || in.DY < -5000 {
				t.Fatalf("position %+v", in)
			}
		}
	})
}

func TestHandFrameRoundTrips(t *testing.T) {
	h := messages.HandFrameHeader{Step: 1, Seq: 9, TimeMs: 1.5e12, PageWidth: 1280, PageHeight: 800, Scale: 1, ScrollY: 300}
	got, jpg, err := messages.DecodeHandFrame(messages.EncodeHandFrame(h, []byte{0xFF, 0xD8}))
	if err != nil || got != h || len(jpg) != 2 {
		t.Fatalf("round trip: %+v %v %v", got, jpg, err)
	}
	if _, _, err := messages.DecodeHandFrame([]byte{1, 2}); err == nil {
		t.Fatal("a short message decoded as a frame")
	}
}

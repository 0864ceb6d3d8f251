package protocol_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/buddi-dev/buddi/native/protocol"
)

// FuzzDecodeResponse feeds untrusted helper output to the decoder: it must
// never panic, and what it accepts must stay within the limits and decode
// the same after a round trip.
func FuzzDecodeResponse(f *testing.F) {
	f.Add(uint8(0), encode(f, &protocol.Response{Observation: validObservation(f)}))
	f.Add(uint8(1), []byte(`{"v":1,"input":{"via":"action"}}`))
	f.Add(uint8(4), []byte(`{"v":1,"error":{"code":"app_ambiguous","message":"Two apps.","candidates":[{"id":"a.b","name":"B"}]}}`))
	f.Add(uint8(6), []byte(`{"v":1,"permissions":{"platform":"macos","ready":false,"checks":[{"name":"accessibility","ok":false,"detail":"Grant it."}]}}`))
	f.Add(uint8(0), []byte(`{"v":1,"observation":{"nodes":[{"ref":"ax1"}]}}`))
	f.Fuzz(func(t *testing.T, call uint8, data []byte) {
		c := protocol.Calls[int(call)%len(protocol.Calls)]
		r, err := protocol.DecodeResponse(c, data)
		if err != nil {
			if protocol.CodeOf(err) == "" {
				t.Fatalf("an untyped error: %v", err)
			}
			return
		}
		if o := r.Observation; o != nil && (len(o.Nodes) > protocol.MaxNodes || len(o.Screenshot.Data) > protocol.MaxScreenshotBytes) {
			t.Fatal("an observation beyond the limits was accepted")
		}
		again, err := protocol.DecodeResponse(c, encode(t, r))
		if err != nil {
			t.Fatalf("an accepted answer does not decode after a round trip: %v", err)
		}
		if !bytes.Equal(encode(t, r), encode(t, again)) {
			t.Fatal("an accepted answer changed in a round trip")
		}
	})
}

// FuzzDecodeRequest feeds arbitrary bytes to the helper's request decoder.
func FuzzDecodeRequest(f *testing.F) {
	seeds := []*protocol.Request{
		{Call: protocol.CallObserve, Observe: &protocol.ObserveArgs{App: "org.gnome.Calculator"}},
		{Call: protocol.CallFill, Fill: &protocol.FillArgs{Guard: guard, Element: *element(), Value: "6×7"}},
		{Call: protocol.CallClick, Click: &protocol.ClickArgs{Guard: guard, Point: &protocol.PointTarget{X: 3, Y: 4, Scale: 1, Screenshot: shotHash}}},
		{Call: protocol.CallNavigate, Navigate: &protocol.NavigateArgs{Browser: "chromium", URL: "https://example.com/"}},
	}
	for _, s := range seeds {
		s.V, s.TimeoutMS = protocol.Version, 1000
		b, _ := json.Marshal(s)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := protocol.DecodeRequest(data)
		if err != nil {
			if protocol.CodeOf(err) == "" {
				t.Fatalf("an untyped error: %v", err)
			}
			return
		}
		if r.Validate() != nil {
			t.Fatal("an accepted request does not validate")
		}
		if r.Navigate != nil && protocol.CheckURL(r.Navigate.URL) != nil {
			t.Fatal("a navigate to a URL CheckURL refuses was accepted")
		}
		if r.Press != nil && !protocol.KeyAllowed(r.Press.Key) {
			t.Fatal("a key outside the allowed set was accepted")
		}
	})
}

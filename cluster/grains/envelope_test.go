package grains

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/types/known/wrapperspb"
)

type probe struct {
	Text string `json:"text"`
}

func probes(t testing.TB) *Registry {
	r := NewRegistry()
	if err := Register[probe](r, "probe"); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestEnvelopeRoundTrips(t *testing.T) {
	r := probes(t)
	wire, err := r.encode(&probe{Text: "héllo\nworld"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.decode(wire)
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := got.(*probe); !ok || p.Text != "héllo\nworld" {
		t.Errorf("decoded %#v", got)
	}
}

func TestEnvelopesThatDoNotDecodeAreRefused(t *testing.T) {
	r := probes(t)
	cases := map[string]struct {
		wire    string
		unknown bool
	}{
		"no name line":   {wire: `{"text":"x"}`},
		"unknown name":   {wire: "other\n{}", unknown: true},
		"empty":          {wire: ""},
		"bad json":       {wire: "probe\n{"},
		"wrong shape":    {wire: `probe` + "\n" + `{"text":1}`},
		"empty name":     {wire: "\n{}", unknown: true},
		"name with null": {wire: "probe\x00\n{}", unknown: true},
	}
	for name, c := range cases {
		_, err := r.decode(wrapperspb.Bytes([]byte(c.wire)))
		var u *UnknownTypeError
		var m *MalformedError
		switch {
		case c.unknown && !errors.As(err, &u):
			t.Errorf("%s: %v, not an UnknownTypeError", name, err)
		case !c.unknown && !errors.As(err, &m):
			t.Errorf("%s: %v, not a MalformedError", name, err)
		}
	}
}

func TestEncodeRefusesNilAndUnknownTypes(t *testing.T) {
	r := probes(t)
	var nilProbe *probe
	for name, msg := range map[string]any{"nil": nil, "nil pointer": nilProbe, "value": probe{}, "other": &struct{}{}} {
		var u *UnknownTypeError
		if _, err := r.encode(msg); !errors.As(err, &u) {
			t.Errorf("%s: %v, not an UnknownTypeError", name, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{"probe\n{\"text\":\"a\"}", "grains.Failure\n{\"code\":\"x\"}", "\n", "probe\nnull", ""} {
		f.Add([]byte(s))
	}
	r := probes(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		msg, err := r.decode(wrapperspb.Bytes(b))
		if err == nil {
			if _, ok := r.name(msg); !ok {
				t.Fatalf("decoded an unregistered %T", msg)
			}
		}
	})
}

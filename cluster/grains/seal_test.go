package grains

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"
)

func sealed(t testing.TB, key string) *Registry {
	t.Helper()
	r := probes(t)
	if err := r.Seal([]byte(key)); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestASealedEnvelopeRoundTripsOnlyUnderItsKey(t *testing.T) {
	const key = "0123456789abcdef-the-cluster-key"
	a, b := sealed(t, key), sealed(t, key)
	wire, err := a.encode(&probe{Text: "owner control"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b.decode(wire); err != nil || got.(*probe).Text != "owner control" {
		t.Fatalf("a member with the key decoded %v (%v)", got, err)
	}

	plain, err := probes(t).encode(&probe{Text: "forged"})
	if err != nil {
		t.Fatal(err)
	}
	other, _ := sealed(t, "another-key-0123456789").encode(&probe{Text: "forged"})
	tampered := wrapperspb.Bytes(bytes.Replace(bytes.Clone(wire.GetValue()), []byte("owner control"), []byte("owner contro1"), 1))
	for name, w := range map[string]*wrapperspb.BytesValue{"unsealed": plain, "another key": other, "tampered": tampered} {
		if _, err := b.decode(w); !errors.Is(err, ErrUnsealed) {
			t.Errorf("%s envelope: %v, want ErrUnsealed", name, err)
		}
	}
}

func TestASealFromFarOutsideTheWindowIsRefused(t *testing.T) {
	key := []byte("0123456789abcdef-the-cluster-key")
	body := []byte(`{"text":"late"}`)
	for _, at := range []time.Time{time.Now().Add(-2 * sealWindow), time.Now().Add(2 * sealWindow)} {
		line := seal(key, []byte("probe"), body, at)
		if _, err := unseal(key, []byte("probe"), append(append(line, '\n'), body...), time.Now()); err == nil || !strings.Contains(err.Error(), "clocks") {
			t.Errorf("a seal from %v: %v, want a refusal naming the clocks", time.Until(at).Round(time.Second), err)
		}
	}
}

func TestAShortKeyIsRefused(t *testing.T) {
	if err := probes(t).Seal([]byte("short")); err == nil {
		t.Fatal("a 5-byte key was taken")
	}
}

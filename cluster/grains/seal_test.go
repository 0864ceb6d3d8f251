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
		if _, err := unseal(key, []byte("probe"), append(append(line, '\n'), body...), time.Now(), nil); err == nil || !strings.Contains(err.Error(), "clocks") {
			t.Errorf("a seal from %v: %v, want a refusal naming the clocks", time.Until(at).Round(time.Second), err)
		}
	}
}

func TestAShortKeyIsRefused(t *testing.T) {
	if err := probes(t).Seal([]byte("short")); err == nil {
		t.Fatal("a 5-byte key was taken")
	}
}

func TestAnEnvelopeIsTakenOnceAndAReplayIsRefused(t *testing.T) {
	const key = "0123456789abcdef-the-cluster-key"
	a, b := sealed(t, key), sealed(t, key)
	wire, err := a.encode(&probe{Text: "act"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.decode(wire); err != nil {
		t.Fatalf("the first copy: %v", err)
	}
	if _, err := b.decode(wire); !errors.Is(err, ErrReplayed) {
		t.Fatalf("the second copy: %v, want ErrReplayed", err)
	}
	// Another member never saw it: its first copy is taken, once.
	c := sealed(t, key)
	if _, err := c.decode(wire); err != nil {
		t.Fatalf("another member's first copy: %v", err)
	}
	again, err := a.encode(&probe{Text: "act"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.decode(again); err != nil {
		t.Fatalf("the same message sent again as a new envelope: %v", err)
	}
}

func TestANonceIsForgottenOnlyOnceItsEnvelopeIsOutOfTheWindow(t *testing.T) {
	s := &nonces{at: map[[nonceBytes]byte]time.Time{}}
	now := time.Now()
	var n [nonceBytes]byte
	n[0] = 1
	if !s.take(n, now.Add(sealWindow), now) {
		t.Fatal("a new nonce was refused")
	}
	if s.take(n, now.Add(sealWindow), now.Add(sealWindow-time.Second)) {
		t.Fatal("a nonce was taken twice within the window")
	}
	later := now.Add(2 * sealWindow)
	var m [nonceBytes]byte
	m[0] = 2
	s.take(m, later.Add(sealWindow), later) // sweeps
	if _, kept := s.at[n]; kept {
		t.Fatal("a nonce out of the window was kept")
	}
}

func TestAPlacementWithoutTheSealOrTakenBeforeIsIgnored(t *testing.T) {
	key := []byte("0123456789abcdef-the-cluster-key")
	sealedTypes := func() *placement {
		r := placementTypes()
		if err := r.Seal(key); err != nil {
			t.Fatal(err)
		}
		return newPlacement(0, r)
	}
	from, to := sealedTypes(), sealedTypes()
	plain := newPlacement(0, placementTypes())
	req := &activate{Identity: "conv-1"}
	good := from.wire(req)
	if got, ok := to.unwire(good).(*activate); !ok || got.Identity != "conv-1" {
		t.Fatalf("a sealed placement was read as %#v", to.unwire(good))
	}
	for name, w := range map[string]*wrapperspb.BytesValue{"unsealed": plain.wire(req), "replayed": good} {
		if got := to.unwire(w); got != nil {
			t.Errorf("a %s placement was read as %#v; want it ignored", name, got)
		}
	}
}

// The cost of sealing an envelope and of checking it (MAC and nonce) on
// arrival, without the transport.
func BenchmarkSealAndTake(b *testing.B) {
	key := []byte("0123456789abcdef-the-cluster-key")
	body := bytes.Repeat([]byte("a"), 300)
	seen := &nonces{at: map[[nonceBytes]byte]time.Time{}}
	b.ReportAllocs()
	for b.Loop() {
		line := seal(key, []byte("buddi.tool"), body, time.Now())
		if _, err := unseal(key, []byte("buddi.tool"), append(append(line, '\n'), body...), time.Now(), seen); err != nil {
			b.Fatal(err)
		}
	}
}

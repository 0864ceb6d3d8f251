package grains

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"
)

func sealedProbes(t testing.TB, key string) *Registry {
	t.Helper()
	r := probes(t)
	if err := r.Seal([]byte(key), nil); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestASealedEnvelopeRoundTripsOnlyUnderItsKey(t *testing.T) {
	const key = "0123456789abcdef-the-cluster-key"
	a, b := sealedProbes(t, key), sealedProbes(t, key)
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
	other, _ := sealedProbes(t, "another-key-0123456789").encode(&probe{Text: "forged"})
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
	if err := probes(t).Seal([]byte("short"), nil); err == nil {
		t.Fatal("a 5-byte key was taken")
	}
}

// A captured envelope sent again is refused, and logged once however
// often it comes; the same message encoded again (a new nonce) is taken.
func TestACapturedEnvelopeSentAgainIsRefused(t *testing.T) {
	const key = "0123456789abcdef-the-cluster-key"
	a := sealedProbes(t, key)
	var logged bytes.Buffer
	b := probes(t)
	if err := b.Seal([]byte(key), slog.New(slog.NewTextHandler(&logged, nil))); err != nil {
		t.Fatal(err)
	}
	wire, err := a.encode(&probe{Text: "act"})
	if err != nil {
		t.Fatal(err)
	}
	taken := 0
	for range 3 {
		if _, err := b.decode(wire); err == nil {
			taken++
		} else if !errors.Is(err, ErrReplayed) {
			t.Fatalf("a copy: %v, want ErrReplayed", err)
		}
	}
	if taken != 1 {
		t.Fatalf("the envelope was taken %d times, want once", taken)
	}
	if n := strings.Count(logged.String(), "already took"); n != 1 {
		t.Fatalf("the copies were logged %d times, want once: %s", n, logged.String())
	}
	again, _ := a.encode(&probe{Text: "act"})
	if _, err := b.decode(again); err != nil {
		t.Fatalf("the same message encoded afresh: %v", err)
	}
}

// A nonce is forgotten only when its envelope could no longer be taken,
// and a full memory refuses rather than forgets.
func TestNoncesAreForgottenOnlyAfterTheirWindow(t *testing.T) {
	s := newNonces(2)
	now := time.Now()
	n1, n2, n3 := [nonceSize]byte{1}, [nonceSize]byte{2}, [nonceSize]byte{3}
	if s.spend(n1, now.Add(sealWindow), now) != fresh || s.spend(n2, now.Add(sealWindow), now) != fresh {
		t.Fatal("two new nonces were not taken")
	}
	if got := s.spend(n3, now.Add(sealWindow), now); got != noncesFull {
		t.Fatalf("a third nonce with room for two: %v, want refused", got)
	}
	if got := s.spend(n1, now.Add(sealWindow), now.Add(sealWindow/2)); got != replayedFirst {
		t.Fatalf("n1 again within its window: %v, want refused", got)
	}
	if got := s.spend(n3, now.Add(3*sealWindow), now.Add(2*sealWindow)); got != fresh {
		t.Fatalf("a new nonce after the others expired: %v, want taken", got)
	}
}

// BenchmarkSealAndCheck measures sealing one envelope and checking it
// where it arrives (MAC, time, nonce spent), the cost a sealed member adds
// to each message between members.
func BenchmarkSealAndCheck(b *testing.B) {
	const key = "0123456789abcdef-the-cluster-key"
	a, r := sealedProbes(b, key), sealedProbes(b, key)
	roundTrips(b, a, r)
}

// BenchmarkEncodeUnsealed is the same envelope unsealed, for comparison.
func BenchmarkEncodeUnsealed(b *testing.B) {
	a, r := probes(b), probes(b)
	roundTrips(b, a, r)
}

// roundTrips encodes an act-sized probe at a and decodes it at r, b.N times.
func roundTrips(b *testing.B, a, r *Registry) {
	msg := &probe{Text: "an act of a few hundred bytes, as an agent's call is: navigate to a page and observe it"}
	for b.Loop() {
		wire, err := a.encode(msg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.decode(wire); err != nil {
			b.Fatal(err)
		}
	}
}

package session

import (
	"testing"
	"time"
)

func TestAnObservationOpensWithItsTimeInUTC(t *testing.T) {
	at := time.Date(2026, 12, 3, 9, 4, 5, 0, time.UTC)
	if got, want := observedAt(at), "Observed 09:04:05 UTC.\n"; got != want {
		t.Fatalf("first line %q, want %q", got, want)
	}
}

func TestObservationIDsAndPageCountsAreDotted(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{dotted("o", 1, 1), "o1.1"},
		{dotted("o", 3, 1024), "o3.1024"},
		{dotted("", 0, 7), "0.7"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

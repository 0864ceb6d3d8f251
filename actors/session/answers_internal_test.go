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

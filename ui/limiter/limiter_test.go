package limiter_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/ui/limiter"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestAKeyIsRefusedAfterMaxFailuresUntilTheWindowPasses(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	l := limiter.New(3, time.Minute, c.now)
	for range 3 {
		if ok, _ := l.Allow("a"); !ok {
			t.Fatal("refused before three failures")
		}
		l.Fail("a")
		c.t = c.t.Add(time.Second)
	}
	ok, wait := l.Allow("a")
	if ok || wait != 57*time.Second {
		t.Fatalf("after three failures: ok %v, wait %s (want refused for 57s)", ok, wait)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another key was refused")
	}
	c.t = c.t.Add(wait)
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("still refused once the oldest failure left the window")
	}
}

func TestResetForgetsAKeysFailures(t *testing.T) {
	l := limiter.New(1, time.Hour, nil)
	l.Fail("a")
	l.Reset("a")
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("refused after a reset")
	}
}

func TestTheTableStaysBounded(t *testing.T) {
	c := &clock{t: time.Unix(1000, 0)}
	l := limiter.New(1, time.Hour, c.now)
	l.Fail("first")
	for i := range 5000 {
		c.t = c.t.Add(time.Millisecond)
		l.Fail("k" + strconv.Itoa(i))
	}
	if ok, _ := l.Allow("first"); !ok {
		t.Fatal("the oldest key was kept while the table overflowed")
	}
	if ok, _ := l.Allow("k4999"); ok {
		t.Fatal("the newest key was forgotten")
	}
}

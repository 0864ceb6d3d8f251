package limit_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/ui/limit"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestAKeyIsRefusedAfterItsTriesAndGetsOneBackPerInterval(t *testing.T) {
	c := &clock{time.Unix(0, 0)}
	l := limit.New(limit.Config{Tries: 3, Every: time.Minute, Now: c.now})
	for range 3 {
		if ok, _ := l.Allow("signin:1.2.3.4"); !ok {
			t.Fatal("refused before its tries were spent")
		}
		l.Fail("signin:1.2.3.4")
	}
	ok, wait := l.Allow("signin:1.2.3.4")
	if ok || wait != time.Minute {
		t.Fatalf("after 3 failures: ok=%v wait=%v, want refused for a minute", ok, wait)
	}
	if ok, _ := l.Allow("signin:5.6.7.8"); !ok {
		t.Fatal("another source was refused for the first one's failures")
	}
	c.t = c.t.Add(time.Minute)
	if ok, _ := l.Allow("signin:1.2.3.4"); !ok {
		t.Fatal("no try came back after the interval")
	}
}

func TestEveryFailureCountsAgainstTheInstall(t *testing.T) {
	c := &clock{time.Unix(0, 0)}
	l := limit.New(limit.Config{Tries: 5, GlobalTries: 4, Now: c.now})
	for i := range 4 {
		l.Fail(fmt.Sprint("pair:", i))
	}
	if ok, _ := l.Allow("telegram:42"); ok {
		t.Fatal("a fresh key was let through although the install spent its tries")
	}
}

func TestForgottenKeysStartAfresh(t *testing.T) {
	c := &clock{time.Unix(0, 0)}
	l := limit.New(limit.Config{Tries: 1, GlobalTries: 1000, MaxKeys: 3, Now: c.now})
	l.Fail("a")
	for _, k := range []string{"b", "c", "d"} {
		c.t = c.t.Add(time.Second)
		l.Allow(k)
	}
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("the least recently used key was not forgotten")
	}
}

func TestTakeSpendsATryWhetherOrNotTheAttemptFails(t *testing.T) {
	c := &clock{time.Unix(0, 0)}
	l := limit.New(limit.Config{Tries: 2, Every: 10 * time.Second, GlobalTries: 1, Local: []string{"mcp:"}, Now: c.now})
	for i := range 2 {
		if ok, _ := l.Take("mcp:ada"); !ok {
			t.Fatalf("take %d was refused within the burst", i+1)
		}
	}
	ok, wait := l.Take("mcp:ada")
	if ok || wait != 10*time.Second {
		t.Fatalf("past the burst: ok=%v wait=%v, want refused for 10 s", ok, wait)
	}
	if ok, _ := l.Take("mcp:bob"); !ok {
		t.Fatal("another agent was refused for the first one's rate")
	}
	if ok, _ := l.Allow("signin:1.2.3.4"); !ok {
		t.Fatal("a local key's takes counted against the install")
	}
	c.t = c.t.Add(10 * time.Second)
	if ok, _ := l.Take("mcp:ada"); !ok {
		t.Fatal("no try came back after the interval")
	}
}

func TestOnlyTheFirstRefusalOfARunIsMarkedFirst(t *testing.T) {
	c := &clock{time.Unix(0, 0)}
	l := limit.New(limit.Config{Tries: 1, Every: time.Minute, Now: c.now})
	if ok, _, first := l.Check("signin:1.2.3.4"); !ok || first {
		t.Fatalf("a fresh key: ok=%v first=%v, want allowed and not a refusal", ok, first)
	}
	l.Fail("signin:1.2.3.4")
	var firsts int
	for range 100 {
		ok, _, first := l.Check("signin:1.2.3.4")
		if ok {
			t.Fatal("allowed with no try left")
		}
		if first {
			firsts++
		}
	}
	if firsts != 1 {
		t.Fatalf("100 refusals in a row marked %d as first, want 1", firsts)
	}
	if _, _, first := l.Check("signin:5.6.7.8"); first {
		t.Fatal("another source's try was marked a refusal")
	}
	c.t = c.t.Add(time.Minute)
	if ok, _, _ := l.Check("signin:1.2.3.4"); !ok {
		t.Fatal("no try came back after the interval")
	}
	l.Fail("signin:1.2.3.4")
	if ok, _, first := l.Check("signin:1.2.3.4"); ok || !first {
		t.Fatalf("the next run of refusals: ok=%v first=%v, want refused and first", ok, first)
	}
}

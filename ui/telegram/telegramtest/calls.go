package telegramtest

import (
	"context"
	"testing"
	"time"
)

// waitLimit bounds every wait of a test on the fake.
const waitLimit = 30 * time.Second

// Calls is every call so far of the methods given (all when none).
func (s *Server) Calls(methods ...string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if len(methods) == 0 || contains(methods, c.Method) {
			out = append(out, c)
		}
	}
	return out
}

// Await waits until match accepts a call of method (counting earlier
// calls too, from the from-th on) and returns it and its index. It waits
// on the fake's calls, never on a timer, and fails the test after
// waitLimit.
func (s *Server) Await(t testing.TB, method string, from int, what string, match func(Call) bool) (Call, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	for {
		s.mu.Lock()
		n := 0
		for _, c := range s.calls {
			if c.Method != method {
				continue
			}
			if n >= from && match(c) {
				s.mu.Unlock()
				return c, n
			}
			n++
		}
		changed := s.changed
		s.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("no %s %s came; calls: %s", method, what, s.summary())
		}
	}
}

// AwaitCount waits until method was called n times.
func (s *Server) AwaitCount(t testing.TB, method string, n int) {
	t.Helper()
	s.Await(t, method, n-1, "number "+itoa(n), func(Call) bool { return true })
}

func (s *Server) summary() string {
	out := ""
	for _, c := range s.Calls() {
		out += "\n  " + c.Method
		if v := c.Fields["text"]; v != "" {
			out += ": " + v
		}
		if v := c.Fields["caption"]; v != "" {
			out += ": " + v
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

package egress_test

import (
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

func TestMaskTypedTakesATypedCodeOutOfAnAddress(t *testing.T) {
	codes := []string{"12345678", "123456789012"}
	cases := map[string]struct{ in, want string }{
		"an 8-digit code in the query":   {"https://a.example/verify?code=12345678&next=/home", "https://a.example/verify?code=[masked]&next=/home"},
		"a 12-digit code in the query":   {"https://a.example/verify?otp=123456789012", "https://a.example/verify?otp=[masked]"},
		"a code grouped with a space":    {"https://a.example/verify?code=1234+5678", "https://a.example/verify?code=[masked]"},
		"a code grouped, escaped":        {"https://a.example/verify?code=1234%205678", "https://a.example/verify?code=[masked]"},
		"a code as a path segment":       {"https://a.example/verify/12345678/done", "https://a.example/verify/[masked]/done"},
		"a code in the fragment":         {"https://a.example/#/verify?x=1&code=123456789012", "https://a.example/#/verify?x=1&code=[masked]"},
		"a bare code as the fragment":    {"https://a.example/verify#12345678", "https://a.example/verify#[masked]"},
		"a longer number is kept":        {"https://a.example/order?id=123456789", "https://a.example/order?id=123456789"},
		"a code inside a value is kept":  {"https://a.example/p?ref=x12345678", "https://a.example/p?ref=x12345678"},
		"an address without it is kept":  {"https://a.example/a?b=c#d", "https://a.example/a?b=c#d"},
		"a parameter named like it kept": {"https://a.example/a?12345678=x", "https://a.example/a?12345678=x"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := egress.MaskTyped(c.in, codes); got != c.want {
				t.Fatalf("MaskTyped(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
	if got := egress.MaskTyped("https://a.example/?code=12345678", nil); got != "https://a.example/?code=12345678" {
		t.Fatalf("with no codes typed: %q", got)
	}
}

func TestLooksLikeCode(t *testing.T) {
	cases := map[string]struct {
		in     string
		digits string
		ok     bool
	}{
		"8 digits":         {"12345678", "12345678", true},
		"12 digits":        {"123456789012", "123456789012", true},
		"grouped":          {" 123-456 ", "123456", true},
		"too short":        {"123", "", false},
		"too long":         {"1234567890123", "", false},
		"letters":          {"12ab5678", "", false},
		"a word":           {"hello", "", false},
		"empty":            {"", "", false},
		"digits in a date": {"2026/12/02", "", false},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			d, ok := egress.LooksLikeCode(c.in)
			if ok != c.ok || (ok && d != c.digits) {
				t.Fatalf("LooksLikeCode(%q) = %q, %v; want %q, %v", c.in, d, ok, c.digits, c.ok)
			}
		})
	}
}

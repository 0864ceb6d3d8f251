package messages_test

import (
	"testing"

	"github.com/buddi-dev/buddi/messages"
)

func TestAnOriginIsWrittenAsABrowserWritesIt(t *testing.T) {
	for raw, want := range map[string]string{
		"https://example.com/login?next=/":   "https://example.com",
		"https://Example.COM:443/a":          "https://example.com",
		"HTTP://example.com:80/":             "http://example.com",
		"http://127.0.0.1:8765/about.html":   "http://127.0.0.1:8765",
		"https://example.com:8443/":          "https://example.com:8443",
		"http://[::1]:9000/x":                "http://[::1]:9000",
		"https://user:pw@example.com/":       "https://example.com",
		"about:blank":                        "",
		"data:text/html,<p>hi":               "",
		"":                                   "",
		"https://exa mple.com/":              "",
		"file:///etc/passwd":                 "",
		"chrome-extension://abcdef/pop.html": "chrome-extension://abcdef",
	} {
		if got := messages.Origin(raw); got != want {
			t.Errorf("Origin(%q) = %q, want %q", raw, got, want)
		}
	}
}

package secret_test

import (
	"testing"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// A secret's origin, as the owner wrote it, is the origin the drivers read
// off a page of that site (messages.Origin): a secret fill is allowed on exactly its pages.
func TestASecretsOriginIsTheOriginOfItsPages(t *testing.T) {
	for _, raw := range []string{"https://Example.com", "https://example.com:443", "http://example.com:80/",
		"http://127.0.0.1:8765", "https://login.example:8443", "http://[::1]:9000", "HTTPS://EXAMPLE.COM"} {
		want, err := secret.Origin(raw)
		if err != nil {
			t.Fatalf("secret.Origin(%q): %v", raw, err)
		}
		page := raw
		if page[len(page)-1] != '/' {
			page += "/"
		}
		page += "sign-in?next=/home#top"
		if got := messages.Origin(page); got != want {
			t.Errorf("a page at %s has origin %q; its secret's is %q", page, got, want)
		}
	}
}

package egress_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

// Test keys are assembled from pieces so that secret scanners reading this
// repository do not mistake them for real ones. None of them is real.
func TestLooksLikeSecret(t *testing.T) {
	cases := map[string]struct {
		value string
		kind  string // "" means it must pass
	}{
		"openai":        {"sk-" + "proj-Ab12Cd34Ef56Gh78Ij90Kl12", "api_key"},
		"anthropic":     {"sk-" + "ant-api03-Ab12Cd34Ef56Gh78Ij90", "api_key"},
		"stripe":        {"sk_" + "live_4eC39HqLyjWDarjtT1zdp7dc", "stripe_key"},
		"github":        {"token: ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5", "github_token"},
		"github pat":    {"github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_token"},
		"aws":           {"AKIA" + "IOSFODNN7EXAMPLE", "aws_access_key"},
		"aws in text":   {"use (AKIA" + "IOSFODNN7EXAMPLE) here", "aws_access_key"},
		"slack":         {"xoxb-" + "1234567890-abcdefghij", "slack_token"},
		"google":        {"AIza" + "SyA-1234567890abcdefghijklmnopqrstu", "google_api_key"},
		"gitlab":        {"glpat-" + "xxxxxxxxxxxxxxxxxxxx", "gitlab_token"},
		"jwt":           {"eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"},
		"bearer jwt":    {"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXBhcnQ", "jwt"},
		"rsa pem":       {"-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----", "private_key"},
		"openssh pem":   {"-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n", "private_key"},
		"base64 random": {"key=" + "q8Zt3Vx9Lm2Rw7Kp4Nb6Yc1Hs5Fd0Gj8", "high_entropy"},
		"hex 64":        {"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "high_entropy"},
		"hex upper 32":  {"A3F9C2E17B4D8065F1E2D3C4B5A69788", "high_entropy"},

		"search":        {"best pizza near me", ""},
		"sentence":      {"The quick brown fox jumps over the lazy dog, twice.", ""},
		"email":         {"jane.doe+news1985@example.com", ""},
		"url":           {"https://www.example.com/search?q=golang+generics&page=2", ""},
		"long url path": {"https://github.com/golang/go/issues/12345#issuecomment-987654321", ""},
		"uuid":          {"550e8400-e29b-41d4-a716-446655440000", ""},
		"upper uuid":    {"550E8400-E29B-41D4-A716-446655440000", ""},
		"short sha":     {"git show 3f2a9c1", ""},
		"phone":         {"+1 (555) 010-9999", ""},
		"sk-ii":         {"SK-II facial treatment essence", ""},
		"task list":     {"sk-learn tutorial", ""},
		"long word":     {"Supercalifragilisticexpialidocious", ""},
		"camel ident":   {"getElementsByClassNameAndTagName", ""},
		"begin no key":  {"-----BEGIN CERTIFICATE-----", ""},
		"empty":         {"", ""},
		"address":       {"1600 Amphitheatre Parkway, Mountain View, CA 94043", ""},
		"akia short":    {"AKIA123", ""},
		"eyJ not jwt":   {"eyJhbGciOiJIUzI1NiJ9", ""},
		"digits":        {"12345678901234567890123456789012345", ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			kind, ok := egress.LooksLikeSecret(c.value)
			if ok != (c.kind != "") || kind != c.kind {
				t.Errorf("LooksLikeSecret(%q) = %q, %v; want %q", c.value, kind, ok, c.kind)
			}
		})
	}
}

func TestLooksLikeSecretLongText(t *testing.T) {
	text := strings.Repeat("Buddi lets agents drive a browser while the owner watches. ", 200)
	if kind, ok := egress.LooksLikeSecret(text); ok {
		t.Errorf("ordinary prose flagged as %s", kind)
	}
}

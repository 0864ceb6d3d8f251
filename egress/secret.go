package egress

import (
	"math"
	"strings"
)

// secretNames is each kind LooksLikeSecret returns, as a phrase for a person.
var secretNames = map[string]string{
	"private_key":       "a private key",
	"jwt":               "a JSON Web Token",
	"api_key":           "an API key",
	"stripe_key":        "a Stripe secret key",
	"github_token":      "a GitHub token",
	"gitlab_token":      "a GitLab token",
	"aws_access_key":    "an AWS access key",
	"slack_token":       "a Slack token",
	"google_api_key":    "a Google API key",
	"npm_token":         "an npm token",
	"huggingface_token": "a Hugging Face token",
	"high_entropy":      "a random key or token",
}

const (
	alnum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64url  = alnum + "-_"
	b64std  = alnum + "+/"
	upperAZ = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
)

// The sets of characters keys are made of, as tables.
var (
	digits   = setOf("0123456789")
	hexLower = setOf("0123456789abcdef")
	hexUpper = setOf("0123456789ABCDEF")
	b64urlIn = setOf(b64url)
	b64stdIn = setOf(b64std)
)

// tokenRule is a vendor's key format: a fixed prefix, then at least min
// (and, when max > 0, at most max) characters from set (in, as a table).
type tokenRule struct {
	prefix   string
	kind     string
	set      string
	min, max int
	in       *byteSet
}

var tokenRules = withSets([]tokenRule{
	{"sk-", "api_key", b64url, 20, 0, nil}, // OpenAI, Anthropic (sk-ant-…)
	{"sk_live_", "stripe_key", alnum, 16, 0, nil},
	{"sk_test_", "stripe_key", alnum, 16, 0, nil},
	{"rk_live_", "stripe_key", alnum, 16, 0, nil},
	{"ghp_", "github_token", alnum, 30, 0, nil},
	{"gho_", "github_token", alnum, 30, 0, nil},
	{"ghu_", "github_token", alnum, 30, 0, nil},
	{"ghs_", "github_token", alnum, 30, 0, nil},
	{"ghr_", "github_token", alnum, 30, 0, nil},
	{"github_pat_", "github_token", alnum + "_", 30, 0, nil},
	{"glpat-", "gitlab_token", b64url, 20, 0, nil},
	{"AKIA", "aws_access_key", upperAZ, 16, 16, nil},
	{"ASIA", "aws_access_key", upperAZ, 16, 16, nil},
	{"xoxb-", "slack_token", alnum + "-", 10, 0, nil},
	{"xoxp-", "slack_token", alnum + "-", 10, 0, nil},
	{"xoxa-", "slack_token", alnum + "-", 10, 0, nil},
	{"xoxe-", "slack_token", alnum + "-", 10, 0, nil},
	{"xoxr-", "slack_token", alnum + "-", 10, 0, nil},
	{"xoxs-", "slack_token", alnum + "-", 10, 0, nil},
	{"AIza", "google_api_key", b64url, 35, 35, nil},
	{"npm_", "npm_token", alnum, 36, 36, nil},
	{"hf_", "huggingface_token", alnum, 30, 0, nil},
})

// withSets fills in each rule's table of its set.
func withSets(rules []tokenRule) []tokenRule {
	for i := range rules {
		rules[i].in = setOf(rules[i].set)
	}
	return rules
}

// LooksLikeSecret reports whether value contains something that looks like
// a credential: a private key PEM block, a JWT, a vendor API key or token
// (sk-…, ghp_…, AKIA…, xox…, AIza…), or a long random base64 or hex string.
// Ordinary text passes: words, sentences, URLs, e-mail addresses, UUIDs,
// short hashes, camelCase names. Long hex (a SHA-256, a full commit hash) and
// long random IDs are refused: they cannot be told apart from keys. It
// catches plaintext only; an encoded secret gets through.
func LooksLikeSecret(value string) (kind string, ok bool) {
	if strings.Contains(value, "-----BEGIN ") && strings.Contains(value, "PRIVATE KEY") {
		return "private_key", true
	}
	for _, tok := range strings.FieldsFunc(value, isTokenBreak) {
		if k, ok := secretToken(tok); ok {
			return k, true
		}
	}
	return "", false
}

// isTokenBreak splits text at spaces, quotes and the punctuation that
// separates a key from its label ("key: sk-…", "token=…", "(ghp_…)").
func isTokenBreak(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', ',', ';', ':', '=', '&', '?', '(', ')', '<', '>', '[', ']', '{', '}':
		return true
	}
	return false
}

// ruleStarts marks the bytes a tokenRule's prefix starts with: a token
// that starts otherwise skips the table.
var ruleStarts = func() (t [256]bool) {
	for _, r := range tokenRules {
		t[r.prefix[0]] = true
	}
	return t
}()

func secretToken(tok string) (string, bool) {
	if kind, ok := vendorToken(tok); ok {
		return kind, true
	}
	if isJWT(tok) {
		return "jwt", true
	}
	if randomLooking(strings.TrimRight(tok, "=")) {
		return "high_entropy", true
	}
	return "", false
}

// isJWT is three dot-separated base64url parts, the first two JSON
// objects ("eyJ…") of ten characters or more. It reads tok in place: every
// long token of every page passes through it.
// vendorToken is the kind of the tokenRule tok follows, if any.
func vendorToken(tok string) (string, bool) {
	if tok == "" || !ruleStarts[tok[0]] {
		return "", false
	}
	for _, r := range tokenRules {
		rest, ok := strings.CutPrefix(tok, r.prefix)
		if ok && len(rest) >= r.min && (r.max == 0 || len(rest) == r.max) && r.in.all(rest) {
			return r.kind, true
		}
	}
	return "", false
}

func isJWT(tok string) bool {
	header, rest, ok := strings.Cut(tok, ".")
	if !ok {
		return false
	}
	payload, signature, ok := strings.Cut(rest, ".")
	if !ok || strings.Contains(signature, ".") {
		return false
	}
	for _, p := range [2]string{header, payload} {
		if len(p) < 10 || !strings.HasPrefix(p, "eyJ") || !b64urlIn.all(p) {
			return false
		}
	}
	return b64urlIn.all(signature)
}

// randomLooking is a long run of base64 or hex that mixes character kinds
// and has the spread of symbols random keys have and words do not.
func randomLooking(tok string) bool {
	if len(tok) < 32 {
		return false
	}
	upper, lower, digit := kinds(tok)
	isHex := hexLower.all(tok) || hexUpper.all(tok)
	switch {
	case isHex:
		return digit && (upper || lower) && entropy(tok) >= 3.0
	case b64urlIn.all(tok) || b64stdIn.all(tok):
		return digit && upper && lower && entropy(tok) >= 4.0 && wordShare(tok) <= 0.6
	}
	return false
}

// kinds reports which kinds of character tok has.
func kinds(tok string) (upper, lower, digit bool) {
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		digit = digit || c >= '0' && c <= '9'
	}
	return upper, lower, digit
}

// wordShare is the share of tok's bytes in word-like runs: three or more
// lower-case letters, with an optional capital before them. CamelCase names
// and product names are mostly words (0.6 and up); random keys rarely are.
func wordShare(tok string) float64 {
	isLower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	inWords := 0
	for i := 0; i < len(tok); {
		j := i
		if tok[j] >= 'A' && tok[j] <= 'Z' {
			j++
		}
		k := j
		for k < len(tok) && isLower(tok[k]) {
			k++
		}
		if k-j >= 3 {
			inWords += k - i
			i = k
			continue
		}
		i++
	}
	return float64(inWords) / float64(len(tok))
}

// entropy is the Shannon entropy of s's bytes, in bits per byte.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

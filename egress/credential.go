package egress

import (
	"slices"
	"strings"
	"unicode"
)

// FieldInfo is a form field's real DOM attributes, as the driver read them
// from the page (never what the agent says the field is).
type FieldInfo struct {
	Type         string // the type attribute
	Autocomplete string // the autocomplete attribute, all of its tokens
	Name         string
	ID           string
	InputMode    string // the inputmode attribute
}

// credentialAutocomplete is the autocomplete family that names a secret.
var credentialAutocomplete = map[string]string{
	"current-password": "a password field",
	"new-password":     "a password field",
	"password":         "a password field",
	"one-time-code":    "a one-time code field",
	"cc-number":        "a card number field",
	"cc-csc":           "a card security code field",
	"cc-exp":           "a card expiry field",
	"cc-exp-month":     "a card expiry field",
	"cc-exp-year":      "a card expiry field",
}

// credentialWords are whole words of a name or id that mark a credential.
var credentialWords = map[string]string{
	"password": "a password field", "passwd": "a password field", "pwd": "a password field",
	"pass": "a password field", "passcode": "a password field", "passphrase": "a password field",
	"passwort": "a password field", "pin": "a PIN field",
	"secret": "a secret field", "token": "a token field", "apikey": "an API key field",
	"otp": "a one-time code field", "totp": "a one-time code field", "mfa": "a one-time code field",
	"cvv": "a card security code field", "cvv2": "a card security code field",
	"cvc": "a card security code field", "cvc2": "a card security code field", "csc": "a card security code field",
	"ccnum": "a card number field", "ccnumber": "a card number field", "cardnumber": "a card number field",
	"pan": "a card number field", "ssn": "a social security number field",
}

// credentialRuns are letter runs that mark a credential wherever they occur
// in a name or id with its separators removed ("user[new_password]").
var credentialRuns = []struct{ run, what string }{
	{"password", "a password field"}, {"passwd", "a password field"},
	{"apikey", "an API key field"}, {"secretkey", "a secret field"}, {"clientsecret", "a secret field"},
	{"accesstoken", "a token field"}, {"authtoken", "a token field"}, {"refreshtoken", "a token field"},
	{"cardnumber", "a card number field"}, {"creditcard", "a card number field"}, {"ccnumber", "a card number field"},
	{"cardnum", "a card number field"}, {"securitycode", "a card security code field"},
	{"cardverification", "a card security code field"}, {"socialsecurity", "a social security number field"},
	{"onetimecode", "a one-time code field"}, {"onetimepass", "a one-time code field"},
}

// CredentialField reports whether typing into a field is refused because it
// holds a credential: type=password, an autocomplete token in the password,
// card number, expiry, security code or one-time code family, or a name or
// id in the password, secret, token, API key, CVV, card number or SSN
// families. reason is a noun phrase such as "a password field".
func CredentialField(f FieldInfo) (reason string, refused bool) {
	if strings.EqualFold(strings.TrimSpace(f.Type), "password") {
		return "a password field", true
	}
	for _, tok := range strings.Fields(strings.ToLower(f.Autocomplete)) {
		if r, ok := credentialAutocomplete[tok]; ok {
			return r, true
		}
	}
	for _, s := range []string{f.Name, f.ID} {
		if r, ok := credentialName(s); ok {
			return r, true
		}
		if numericCode(f.InputMode, s) {
			return "a one-time code field", true
		}
	}
	return "", false
}

// numericCode catches the usual unlabelled one-time code box: a numeric
// input named "code" or "verification", unless it is a postal or promo code.
func numericCode(inputMode, s string) bool {
	if !strings.EqualFold(strings.TrimSpace(inputMode), "numeric") {
		return false
	}
	code := false
	for _, w := range splitWords(s) {
		switch {
		case slices.Contains(codeWords, w):
			code = true
		case slices.Contains(notCodeWords, w):
			return false
		}
	}
	return code
}

// codeWords name a numeric one-time code box; notCodeWords name other
// numeric codes that are not secrets.
var (
	codeWords    = []string{"code", "verification", "verify"}
	notCodeWords = []string{"zip", "postal", "post", "postcode", "area", "country", "phone", "promo", "coupon", "discount", "gift"}
)

func credentialName(s string) (string, bool) {
	words := splitWords(s)
	for i, w := range words {
		if r, ok := credentialWords[w]; ok {
			return r, true
		}
		if i+1 < len(words) {
			if r, ok := credentialWords[w+words[i+1]]; ok { // "api key", "card number"
				return r, true
			}
		}
	}
	joined := strings.Join(words, "")
	for _, c := range credentialRuns {
		if strings.Contains(joined, c.run) {
			return c.what, true
		}
	}
	return "", false
}

// splitWords breaks an identifier into lower-case words at separators and
// at lower-to-upper case changes: "user[newPassword]" is user, new, password.
func splitWords(s string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	var prev rune
	for _, r := range s {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
		prev = r
	}
	flush()
	return words
}

// CheckTyping is what the driver calls before typing value into field f. It
// returns nil, or a *Refusal with CodeCredentialField or CodeSecretValue.
func CheckTyping(f FieldInfo, value string) error {
	if what, refused := CredentialField(f); refused {
		return refuse(CodeCredentialField, "This is %s, and buddi never types credentials; ask the owner to fill it in themselves.", what)
	}
	if kind, ok := LooksLikeSecret(value); ok {
		return refuse(CodeSecretValue, "That text looks like %s, so it was not typed; never put keys or tokens into a page.", secretNames[kind])
	}
	return nil
}

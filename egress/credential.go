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

// oneTimeCode is the reason of a one-time code field: the one credential
// field an agent may type into (the owner mailed it the code). Its value is
// masked wherever a read shows it, like every other credential's.
const oneTimeCode = "a one-time code field"

// credentialAutocomplete is the autocomplete family that names a secret.
var credentialAutocomplete = map[string]string{
	"current-password": "a password field",
	"new-password":     "a password field",
	"password":         "a password field",
	"one-time-code":    oneTimeCode,
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
	"otp": oneTimeCode, "totp": oneTimeCode, "mfa": oneTimeCode,
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
	{"onetimecode", oneTimeCode}, {"onetimepass", oneTimeCode},
}

// CredentialField reports whether a field holds a credential, whose value
// reads mask: type=password, an autocomplete token in the password, card
// number, expiry, security code or one-time code family, or a name or id in
// the password, secret, token, API key, CVV, card number, SSN or one-time
// code families. reason is a noun phrase such as "a password field"; when a
// field matches a one-time code rule and another, the other is the reason.
func CredentialField(f FieldInfo) (reason string, refused bool) {
	if strings.EqualFold(strings.TrimSpace(f.Type), "password") {
		return "a password field", true
	}
	var found string
	keep := func(r string) bool { // true once a reason other than a code is found
		if found == "" || found == oneTimeCode {
			found = r
		}
		return found != oneTimeCode
	}
	for _, tok := range strings.Fields(strings.ToLower(f.Autocomplete)) {
		if r, ok := credentialAutocomplete[tok]; ok && keep(r) {
			return found, true
		}
	}
	for _, s := range []string{f.Name, f.ID} {
		if r, ok := credentialName(s); ok && keep(r) {
			return found, true
		}
		if numericCode(f.InputMode, s) {
			keep(oneTimeCode)
		}
	}
	return found, found != ""
}

// OneTimeCode reports whether f is a one-time code field and nothing more
// secret: the credential field an agent may type into.
func OneTimeCode(f FieldInfo) bool {
	reason, _ := CredentialField(f)
	return reason == oneTimeCode
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

// credentialName is the credential family a name or id is in, preferring
// any other family to a one-time code ("otp_password" is a password).
func credentialName(s string) (string, bool) {
	words := splitWords(s)
	found := ""
	note := func(r string) bool {
		if found == "" || found == oneTimeCode {
			found = r
		}
		return found != oneTimeCode
	}
	for i, w := range words {
		if r, ok := credentialWords[w]; ok && note(r) {
			return found, true
		}
		if i+1 < len(words) {
			if r, ok := credentialWords[w+words[i+1]]; ok && note(r) { // "api key", "card number"
				return found, true
			}
		}
	}
	joined := strings.Join(words, "")
	for _, c := range credentialRuns {
		if strings.Contains(joined, c.run) && note(c.what) {
			return found, true
		}
	}
	return found, found != ""
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
// returns nil, or a *Refusal with CodeCredentialField or CodeSecretValue. A
// one-time code field takes text (the code the owner was mailed), every
// other credential field none; what is typed is checked either way.
func CheckTyping(f FieldInfo, value string) error {
	if what, refused := CredentialField(f); refused && what != oneTimeCode {
		return refuse(CodeCredentialField, "This is %s, and buddi never types credentials; ask the owner to fill it in themselves.", what)
	}
	if kind, ok := LooksLikeSecret(value); ok {
		return refuse(CodeSecretValue, "That text looks like %s, so it was not typed; never put keys or tokens into a page.", secretNames[kind])
	}
	return nil
}

package messages

import "net/url"

// SiteOnly is raw cut to its scheme and host, for a record or a log line
// of a URL refused because it carries a secret (CodeSecretInURL): what was
// refused is kept, the secret is not. A URL that does not parse is
// dropped whole.
func SiteOnly(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(a URL)"
	}
	return u.Scheme + "://" + u.Host + "/…"
}

// Recorded is the URL of a refusal with code as records and logs keep it:
// whole, or SiteOnly for a URL carrying a secret.
func Recorded(code Code, raw string) string {
	if code == CodeSecretInURL {
		return SiteOnly(raw)
	}
	return raw
}

// RecordedRefusal reports whether a refusal with code is kept in the
// refusal record (besides being answered): air-gap's, and a URL carrying a
// secret.
func RecordedRefusal(code Code) bool { return code == CodeAirGap || code == CodeSecretInURL }

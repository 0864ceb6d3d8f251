package protocol

import (
	"net/url"
	"strings"
	"unicode"
)

// CheckURL refuses a navigate URL that is not an absolute http or https URL
// with a host and no credentials. It is the helper's last check, not the
// owner's rules: buddi applies those before it calls.
func CheckURL(raw string) *Error {
	if len(raw) == 0 || len(raw) > MaxURLBytes {
		return Errorf(CodeBadURL, "The URL is empty or longer than %d bytes; give an absolute http or https URL.", MaxURLBytes)
	}
	if strings.IndexFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return Errorf(CodeBadURL, "The URL holds spaces or control characters; encode them and try again.")
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Opaque != "" {
		return Errorf(CodeBadURL, "%q is not an absolute URL; give one that starts with https://.", raw)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return Errorf(CodeBadURL, "Only http and https URLs open in a browser tab, not %s:; give an https URL.", u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return Errorf(CodeBadURL, "%q names no host; give a URL such as https://example.com/.", raw)
	}
	if u.User != nil {
		return Errorf(CodeBadURL, "The URL carries a user name or password; leave them out and sign in on the page yourself.")
	}
	return nil
}

package messages

import (
	"net/url"
	"strings"
)

// Origin is the origin of the page at raw as a browser serialises it
// (location.origin): the scheme and host in lower case, the port only when
// it is not the scheme's own. It is "" for an address with no host
// (about:blank, data:, one that does not parse), whose origin is opaque.
// The owner's secrets name their origins with it (secret.Origin).
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if host == "" {
		return ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" || scheme == "https" && port == "443" || scheme == "http" && port == "80" {
		return scheme + "://" + host
	}
	return scheme + "://" + host + ":" + port
}

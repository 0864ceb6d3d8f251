package egress

import (
	"net/url"
	"strings"
)

// A secret must not leave in a URL: before the browser opens a URL (a
// navigation, each redirect hop, a form sent with GET, a frame, a popup),
// its path, query and fragment are read, each part decoded, with the
// detectors that mask page text (LooksLikeSecret), each label of the host
// too, and the whole URL for the Known values. The guard reads the host
// name of every connection the same way (hostSecret), which covers the
// requests the URL check never sees (a page's fetches and images): of their
// URLs it sees only the name. Like the rest
// of the scan, this catches plaintext (and, for known values, their base64
// and hex); an agent that encodes a secret otherwise gets it through.

// secretIn reports where in u a secret sits ("host", "path", "query",
// "fragment", "address") and what it looks like, as a phrase for a person.
func secretIn(u *url.URL, known *Known) (where, what string, found bool) {
	if what, found := hostSecret(u.Hostname(), nil); found {
		return "host", what, true
	}
	path := strings.Split(u.EscapedPath(), "/")
	query := strings.Split(u.RawQuery, "&")
	frag := u.EscapedFragment()
	for _, part := range []struct {
		where string
		items []string
	}{{"path", path}, {"query", query}, {"fragment", []string{frag}}} {
		for _, raw := range part.items {
			if kind, ok := looksSecret(unescape(raw)); ok {
				return part.where, secretNames[kind], true
			}
		}
	}
	if known.in(u.String(), unescape(u.EscapedPath()), unescape(u.RawQuery), unescape(frag)) {
		return "address", "one of the owner's secrets or a value masked from a page", true
	}
	return "", "", false
}

// hostSecret reports whether a host name carries a secret: a label the
// detectors flag, or a known value anywhere in it. The guard asks it of
// every name the browser connects to, subresources included, since that
// is the part of their URLs it sees.
func hostSecret(name string, known *Known) (what string, found bool) {
	for _, label := range strings.Split(name, ".") {
		if kind, ok := LooksLikeSecret(label); ok {
			return secretNames[kind], true
		}
	}
	if known.in(name) {
		return "one of the owner's secrets or a value masked from a page", true
	}
	return "", false
}

// looksSecret runs the detectors on one decoded part of a URL, whole and
// cut at its slashes (a key inside a path-like value, "next=/a/sk-…").
func looksSecret(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	if kind, ok := LooksLikeSecret(s); ok {
		return kind, true
	}
	if !strings.Contains(s, "/") {
		return "", false
	}
	for _, p := range strings.Split(s, "/") {
		if kind, ok := LooksLikeSecret(p); ok {
			return kind, true
		}
	}
	return "", false
}

// unescape decodes %XX escapes, leaving '+' as it is (it is part of
// base64, and a server may read it either way); a bad escape is kept.
func unescape(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	if d, err := url.PathUnescape(s); err == nil {
		return d
	}
	return s
}

func refuseSecret(where, what string) *Refusal {
	return refuse(CodeSecretInURL, "That URL carries what looks like %s in its %s, and buddi never lets a secret leave in a URL; open the page without it (if the site needs it there, the owner has to do this step).", what, where)
}

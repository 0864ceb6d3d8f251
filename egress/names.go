package egress

import "strings"

// localSuffixes are names that never lead to the public internet: they are
// answered by the machine itself, by mDNS on the local link, or by a home or
// corporate resolver. A URL naming one is refused before any lookup.
// Longer suffixes come first so the most specific class wins.
var localSuffixes = []struct {
	suffix string
	class  Class
}{
	{"home.arpa", ClassPrivate},    // RFC 8375
	{"localhost", ClassLoopback},   // RFC 6761; browsers answer it themselves
	{"localdomain", ClassLoopback}, // localhost.localdomain in /etc/hosts
	{"local", ClassLinkLocal},      // mDNS, RFC 6762
	{"internal", ClassPrivate},     // reserved for private use by ICANN
	{"lan", ClassPrivate},          // common router default
	{"intranet", ClassPrivate},     //
	{"corp", ClassPrivate},         //
	{"arpa", ClassReserved},        // reverse-lookup and infrastructure names
	{"test", ClassReserved},        // RFC 6761
	{"invalid", ClassReserved},     // RFC 6761
	{"example", ClassReserved},     // RFC 6761
}

// nameClass classes a host name without resolving it: ClassPublic means
// "only DNS can tell", which is what the guard then checks.
func nameClass(bare string) Class {
	for _, l := range localSuffixes {
		if bare == l.suffix || strings.HasSuffix(bare, "."+l.suffix) {
			return l.class
		}
	}
	if !strings.Contains(bare, ".") {
		return ClassPrivate // a single label is completed by the local search domain
	}
	return ClassPublic
}

// isLocalhost reports whether name is one the browser itself maps to loopback.
func isLocalhost(bare string) bool {
	return bare == "localhost" || strings.HasSuffix(bare, ".localhost")
}

package egress

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// host is a URL host canonicalized the way Chromium does it: IDNA-mapped,
// lower case, and IPv4 in any of the legacy spellings (2130706433, 0x7f.1,
// 0177.0.0.1) turned into the address the browser would really connect to.
type host struct {
	name string     // canonical ASCII form, trailing dot kept; "" for an IP
	addr netip.Addr // valid when the host is an IP literal
}

func (h host) isIP() bool { return h.addr.IsValid() }

// String is the host as it appears in a URL (IPv6 without brackets).
func (h host) String() string {
	if h.isIP() {
		return h.addr.String()
	}
	return h.name
}

// bare is the name without its one trailing dot, for suffix and list checks.
func (h host) bare() string { return strings.TrimSuffix(h.name, ".") }

var errBadHost = errors.New("egress: not a host a browser would accept")

// idnaProfile follows the WHATWG URL standard's "domain to ASCII": UTS 46
// non-transitional mapping, no STD3 rules (underscores stay), no hyphen
// checks, no DNS length limits.
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.BidiRule(),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(false),
)

// parseHost canonicalizes the host part of a URL (what url.URL.Hostname
// gives: no brackets, no port). Anything it cannot be sure about is an error,
// never a guess.
func parseHost(s string) (host, error) {
	if s == "" || len(s) > 255 || !utf8.ValidString(s) {
		return host{}, errBadHost
	}
	if strings.Contains(s, ":") {
		return parseIPv6Host(s)
	}
	ascii, err := idnaProfile.ToASCII(s)
	if err != nil {
		return host{}, errBadHost
	}
	ascii = strings.ToLower(ascii)
	if again, err := idnaProfile.ToASCII(ascii); err != nil || again != ascii {
		return host{}, errBadHost // its punycode does not stand for what it came from
	}
	if !validName(ascii) {
		return host{}, errBadHost
	}
	if endsInNumber(ascii) {
		a, ok := parseLegacyIPv4(ascii)
		if !ok {
			return host{}, errBadHost
		}
		return host{addr: a}, nil
	}
	return host{name: ascii}, nil
}

func parseIPv6Host(s string) (host, error) {
	a, err := netip.ParseAddr(s)
	if err != nil || !a.Is6() || a.Zone() != "" {
		return host{}, errBadHost // browsers accept no zone in a URL
	}
	return host{addr: a}, nil
}

// validName accepts letters, digits, '-', '_' and non-empty dot-separated
// labels, with at most one trailing dot.
func validName(s string) bool {
	labels := strings.Split(strings.TrimSuffix(s, "."), ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '-' && c != '_' {
				return false
			}
		}
	}
	return true
}

// endsInNumber is the WHATWG test for "this host must be parsed as IPv4":
// its last label is decimal digits, or 0x followed by hex digits.
func endsInNumber(s string) bool {
	labels := strings.Split(strings.TrimSuffix(s, "."), ".")
	last := labels[len(labels)-1]
	if digits.all(last) {
		return true
	}
	return strings.HasPrefix(last, "0x") && hexLower.all(last[2:])
}

// parseLegacyIPv4 reads one to four parts, each decimal, 0x-hex or 0-octal;
// the last part fills the remaining bytes (127.1 is 127.0.0.1).
func parseLegacyIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(s, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var nums []uint64
	for _, p := range parts {
		n, ok := parseIPv4Part(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums = append(nums, n)
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

func parseIPv4Part(p string) (uint64, bool) {
	base := 10
	switch {
	case p == "":
		return 0, false
	case strings.HasPrefix(p, "0x"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true // "0x" alone is zero
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	n, err := strconv.ParseUint(p, base, 64)
	return n, err == nil
}

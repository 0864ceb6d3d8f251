package egress

import "net/netip"

// Class is what kind of address a destination is. Only ClassPublic may be
// dialled; every other class is refused with CodePrivateAddress.
type Class uint8

// Address classes, from most to least specific. The zero value is ClassInvalid.
const (
	ClassInvalid       Class = iota // not an address at all
	ClassPublic                     // global unicast: the only class the guard dials
	ClassUnspecified                // 0.0.0.0/8, ::
	ClassLoopback                   // 127.0.0.0/8, ::1
	ClassPrivate                    // 10/8, 172.16/12, 192.168/16
	ClassCGNAT                      // 100.64.0.0/10, shared address space
	ClassLinkLocal                  // 169.254/16, fe80::/10, and any address with a zone
	ClassMulticast                  // 224/4, ff00::/8
	ClassBroadcast                  // 255.255.255.255
	ClassDocumentation              // TEST-NETs, 2001:db8::/32, 3fff::/20
	ClassReserved                   // benchmarking, IETF, 240/4, discard, unallocated IPv6
	ClassUniqueLocal                // fc00::/7
	ClassSiteLocal                  // fec0::/10, deprecated but still routed by some stacks
	ClassNAT64                      // 64:ff9b::/96, 64:ff9b:1::/48
	ClassSixToFour                  // 2002::/16
	ClassTeredo                     // 2001::/32
	ClassTranslated                 // ::ffff:0:0:0/96 and IPv4-compatible ::/96
)

var classNames = [...]string{
	ClassInvalid:       "invalid",
	ClassPublic:        "public",
	ClassUnspecified:   "unspecified",
	ClassLoopback:      "loopback",
	ClassPrivate:       "private",
	ClassCGNAT:         "cgnat",
	ClassLinkLocal:     "link_local",
	ClassMulticast:     "multicast",
	ClassBroadcast:     "broadcast",
	ClassDocumentation: "documentation",
	ClassReserved:      "reserved",
	ClassUniqueLocal:   "unique_local",
	ClassSiteLocal:     "site_local",
	ClassNAT64:         "nat64",
	ClassSixToFour:     "6to4",
	ClassTeredo:        "teredo",
	ClassTranslated:    "translated",
}

// String is the class's stable name, used in logs and Stats.
func (c Class) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "invalid"
}

// Allowed reports whether the guard may dial an address of this class.
func (c Class) Allowed() bool { return c == ClassPublic }

type prefixClass struct {
	p netip.Prefix
	c Class
}

func pc(s string, c Class) prefixClass { return prefixClass{netip.MustParsePrefix(s), c} }

// v4Classes holds every IPv4 range that is not public. Order does not matter:
// the ranges do not overlap.
var v4Classes = []prefixClass{
	pc("0.0.0.0/8", ClassUnspecified),
	pc("10.0.0.0/8", ClassPrivate),
	pc("100.64.0.0/10", ClassCGNAT),
	pc("127.0.0.0/8", ClassLoopback),
	pc("169.254.0.0/16", ClassLinkLocal),
	pc("172.16.0.0/12", ClassPrivate),
	pc("192.0.0.0/24", ClassReserved),
	pc("192.0.2.0/24", ClassDocumentation),
	pc("192.88.99.0/24", ClassReserved), // old 6to4 relay anycast
	pc("192.168.0.0/16", ClassPrivate),
	pc("198.18.0.0/15", ClassReserved), // benchmarking
	pc("198.51.100.0/24", ClassDocumentation),
	pc("203.0.113.0/24", ClassDocumentation),
	pc("224.0.0.0/4", ClassMulticast),
	pc("255.255.255.255/32", ClassBroadcast),
	pc("240.0.0.0/4", ClassReserved), // checked after broadcast
}

// v6Classes is checked in order; more specific prefixes come first.
var v6Classes = []prefixClass{
	pc("64:ff9b::/96", ClassNAT64),         // inside ::/8, so before it
	pc("64:ff9b:1::/48", ClassNAT64),       //
	pc("::ffff:0:0:0/96", ClassTranslated), // SIIT, RFC 7915
	pc("::/96", ClassTranslated),           // IPv4-compatible, deprecated
	pc("::/8", ClassReserved),
	pc("100::/64", ClassReserved), // discard-only
	pc("2001::/32", ClassTeredo),
	pc("2001:db8::/32", ClassDocumentation),
	pc("2001::/23", ClassReserved), // IETF protocol assignments, ORCHID, benchmarking
	pc("2002::/16", ClassSixToFour),
	pc("3fff::/20", ClassDocumentation),
	pc("fc00::/7", ClassUniqueLocal),
	pc("fe80::/10", ClassLinkLocal),
	pc("fec0::/10", ClassSiteLocal),
	pc("ff00::/8", ClassMulticast),
}

var globalUnicast = netip.MustParsePrefix("2000::/3")

// Classify says what kind of address a is. An IPv4-mapped IPv6 address
// (::ffff:a.b.c.d) is what a dialler would reach, so it takes the class of
// the IPv4 address inside it. NAT64, 6to4 and Teredo addresses are refused as
// whole classes whatever they embed: where they lead depends on a gateway we
// cannot see. An address with a zone is scoped to one link and classed so.
func Classify(a netip.Addr) Class {
	switch {
	case !a.IsValid():
		return ClassInvalid
	case a.Zone() != "":
		return ClassLinkLocal
	case a.Is4In6():
		return classify4(a.Unmap())
	case a.Is4():
		return classify4(a)
	}
	return classify6(a)
}

func classify4(a netip.Addr) Class {
	for _, r := range v4Classes {
		if r.p.Contains(a) {
			return r.c
		}
	}
	return ClassPublic
}

func classify6(a netip.Addr) Class {
	switch a {
	case netip.IPv6Unspecified():
		return ClassUnspecified
	case netip.IPv6Loopback():
		return ClassLoopback
	}
	for _, r := range v6Classes {
		if r.p.Contains(a) {
			return r.c
		}
	}
	if !globalUnicast.Contains(a) {
		return ClassReserved // not allocated for unicast
	}
	return ClassPublic
}

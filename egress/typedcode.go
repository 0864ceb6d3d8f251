package egress

import "strings"

// A one-time code an agent types is never kept, yet a site may echo it
// into the address of the page it shows next ("/verify?code=12345678"),
// which buddi keeps and shows: in the session's record, its steps, the
// dashboard and the agent's own answers. MaskTyped takes it out of such an
// address wherever it stands whole: a path segment, or the value of a
// query or fragment parameter.

// Bounds of a typed value that looks like a one-time code.
const (
	MinCodeDigits = 4
	MaxCodeDigits = 12
)

// TypedCodeMask replaces a typed one-time code in an address.
const TypedCodeMask = "[masked]"

// LooksLikeCode reports whether a typed value has a one-time code's shape:
// MinCodeDigits to MaxCodeDigits digits, perhaps grouped by spaces or
// dashes ("123 456"). It returns the digits alone.
func LooksLikeCode(v string) (string, bool) {
	var b strings.Builder
	for _, r := range strings.TrimSpace(v) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-':
		default:
			return "", false
		}
	}
	n := b.Len()
	return b.String(), n >= MinCodeDigits && n <= MaxCodeDigits
}

// MaskTyped is u with every path segment and every query or fragment
// parameter value that is one of codes (as LooksLikeCode gives them, once
// decoded and ungrouped) replaced by TypedCodeMask; the rest of u is kept
// byte for byte.
func MaskTyped(u string, codes []string) string {
	if len(codes) == 0 || u == "" {
		return u
	}
	rest, frag, hasFrag := strings.Cut(u, "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	out := maskParts(rest, "/", codes, false)
	if hasQuery {
		out += "?" + maskParts(query, "&", codes, true)
	}
	if hasFrag {
		out += "#" + maskParts(frag, "&", codes, true)
	}
	return out
}

// maskParts masks the items of s cut at sep that are a code whole, or,
// with params, whose value after "=" is.
func maskParts(s, sep string, codes []string, params bool) string {
	items := strings.Split(s, sep)
	for i, it := range items {
		key, val, hasKey := "", it, false
		if params {
			if k, v, ok := strings.Cut(it, "="); ok {
				key, val, hasKey = k, v, true
			}
		}
		digits, ok := LooksLikeCode(strings.ReplaceAll(unescape(val), "+", " "))
		if !ok || !containsCode(codes, digits) {
			continue
		}
		if hasKey {
			items[i] = key + "=" + TypedCodeMask
		} else {
			items[i] = TypedCodeMask
		}
	}
	return strings.Join(items, sep)
}

func containsCode(codes []string, digits string) bool {
	for _, c := range codes {
		if c == digits {
			return true
		}
	}
	return false
}

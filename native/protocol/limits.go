package protocol

import "time"

// Version is the protocol version both sides must speak.
const Version = 1

// Limits on what crosses the wire. They are part of the protocol: a helper
// that exceeds one is refused as malformed.
const (
	MaxRequestBytes    = 256 << 10 // a request, with a fill value at its longest
	MaxResponseBytes   = 16 << 20  // an answer, screenshot and tree included
	MaxScreenshotBytes = 8 << 20   // the encoded image, before base64
	MaxScreenshotSide  = 8192      // pixels, either side
	MaxNodes           = 1000      // nodes in one observation
	MaxDepth           = 64        // depth of a node in the tree
	MaxTextBytes       = 100_000   // names and values of all nodes together
	MaxNameRunes       = 200       // one node's name, a window title
	MaxValueRunes      = 1000      // one node's value
	MaxFillRunes       = 10_000    // a fill value
	MaxLocatorBytes    = 512       // a platform locator
	MaxIDBytes         = 256       // an app id, a window id
	MaxURLBytes        = 2048      // a navigate URL
	MaxMessageRunes    = 400       // an error sentence
	MaxDetailRunes     = 400       // an error's underlying cause
	MaxCandidates      = 20        // apps listed when a name matches several
	MaxChecks          = 8         // permission checks in a probe
	MaxScale           = 4         // screenshot pixels per window point
)

// NameSearchTimeout bounds the search for an app by name.
const NameSearchTimeout = 5 * time.Second

// DefaultTimeout is how long the Client gives a helper for each call when the
// Client sets no timeout of its own. A fill adds FillTimeoutPerRune per rune
// of its value.
func DefaultTimeout(c Call) time.Duration {
	switch c {
	case CallObserve:
		return 15 * time.Second
	case CallOpen:
		return 20 * time.Second
	case CallNavigate:
		return 15 * time.Second
	case CallRequestPermissions:
		return 30 * time.Second
	case CallProbe:
		return 5 * time.Second
	case CallFind:
		return NameSearchTimeout + 2*time.Second
	default:
		return 10 * time.Second
	}
}

// FillTimeoutPerRune is the time a fill gets for each rune of its value on
// top of DefaultTimeout(CallFill).
const FillTimeoutPerRune = 2 * time.Millisecond

// Package handwire is the hand socket's wire format: while the owner has
// taken a page over, the dashboard's hand socket carries the page's
// picture out as binary frames (a header, then a JPEG) and the owner's
// pointer and keys in as small JSON text messages, each checked before it
// reaches the page. The hand actor and the surface meet through
// messages.HandOpen; this package is only what crosses the socket.
//
// It imports nothing of buddi's: the contract (messages) refers to it.
package handwire

// Limits of the input messages.
const (
	InputMax    = 256  // bytes in one input message
	WheelMax    = 5000 // pixels of one wheel step, either way
	CoordsSlack = 1    // CSS pixels a coordinate may stray past the frame's edge
)

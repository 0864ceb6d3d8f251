package messages

import "time"

// "Your browser": the owner's Chrome, through the paired extension. Its
// socket (/api/extension/socket) is the surface's; the connection actor
// (extconn) owns the pairing and every connection. They meet through
// ExtensionOpen, as the hand does: the surface hands the actor an
// ExtensionWire to write on and gets back an ExtensionLink to pass what the
// extension sends. The wire's messages are package extwire.

// ExtensionOpen hands one upgraded extension socket to the connection
// actor. ExtensionID is the id in the socket's Origin, already one of the
// accepted ids; Addr is buddi's own end of the socket (host:port, as
// netip.AddrPort writes it), which both sides' proofs cover. Answered with
// *OwnerReply carrying *ExtensionOpened, or an error when too many
// connections are still proving themselves.
type ExtensionOpen struct {
	ExtensionID string
	Addr        string
	Wire        ExtensionWire
}

// ExtensionOpened answers ExtensionOpen.
type ExtensionOpened struct{ Link ExtensionLink }

func (*ExtensionOpened) answer() {}

// ExtensionWire is the extension's socket as the actor writes on it. Its
// methods never block on the network.
type ExtensionWire interface {
	// Send queues one encoded message (extwire.Encode) for the extension.
	Send(b []byte)
	// Close sends why (when not nil) as a refused message, then closes.
	Close(why *Error)
}

// ExtensionLink is the way the surface passes the extension's messages to
// the actor. Its methods never block.
type ExtensionLink interface {
	// Message passes one decoded message (extwire.Decode).
	Message(in ExtIn)
	// Bad reports a message that could not be decoded; the connection ends.
	Bad(e *Error)
	// Gone reports the socket closed.
	Gone()
}

// ExtIn is one decoded message of the extension: package extwire defines
// them, each marked with ExtIn.
type ExtIn interface{ ExtIn() }

// GetExtension asks what buddi knows of the paired extension; answered
// with *ExtensionView.
type GetExtension struct{}

// PairExtension is the owner typing the code the extension shows;
// answered with *ExtensionView once paired, or wrong_code / no_code.
type PairExtension struct{ Code string }

// ForgetExtension deletes the pairing and closes the socket; answered with
// *ExtensionView.
type ForgetExtension struct{}

// ForExtension marks the owner messages the connection actor answers.
type ForExtension interface{ forExtension() }

func (*GetExtension) forExtension()    {}
func (*PairExtension) forExtension()   {}
func (*ForgetExtension) forExtension() {}
func (*ExtensionOpen) forExtension()   {}

// ExtensionView is the pairing as the owner sees it. It carries no token
// and no hash.
type ExtensionView struct {
	Paired    bool      `json:"paired"`
	ID        string    `json:"extensionId,omitempty"`
	Build     string    `json:"build,omitempty"`
	PairedAt  time.Time `json:"pairedAt,omitzero"`
	LastSeen  time.Time `json:"lastSeen,omitzero"`
	Connected bool      `json:"connected"`
	// Pairing is the id of an extension showing a code, if one is.
	Pairing string `json:"pairing,omitempty"`
	// Accepted are the extension ids buddi pairs (the unpacked build's and
	// the store's); the dashboard asks each whether it is installed.
	Accepted []string `json:"accepted"`
	// Folder is the unpacked extension shipped with buddi, for a developer
	// install; "" when it is not next to buddi's program.
	Folder string `json:"folder,omitempty"`
}

func (*ExtensionView) answer() {}

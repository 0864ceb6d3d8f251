package extwire

import "time"

// Limits of the extension's connections, as the specification sets them.
const (
	PingEvery    = 20 * time.Second // a data message: protocol pings do not wake the worker
	MissedPings  = 3                // pings unanswered before the connection closes
	CommandWait  = time.Minute      // a command unanswered this long fails
	AbandonWait  = 10 * time.Second // how long buddi waits for an abandon to be confirmed
	CodeLife     = 5 * time.Minute  // a pairing code, and the connection showing it
	CodeTries    = 5                // wrong codes that spend one
	HelloWait    = 10 * time.Second // a connection must prove itself within this
	MaxMessage   = 8 << 20          // the largest message either side sends
	MaxConnected = 4                // connections still proving themselves at once
	MaxPairing   = 3                // connections showing a pairing code at once
)

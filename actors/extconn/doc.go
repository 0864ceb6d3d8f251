// Package extconn is the extension connection: the pairing of the owner's
// browser extension ("Your browser") and its one live, proven connection.
//
// The Actor owns the pairing record (<data>/extension.json, the SHA-256 of
// the extension's token and nothing secret besides) and the codes pairing
// extensions show. Each socket the surface upgrades becomes a child conn
// that must prove itself: Hello (the extension's nonce; buddi's nonce and
// proof), Proved (the extension's token and proof, checked by the Actor),
// Ready. Both proofs (extwire.Proof) cover both nonces, buddi's end of
// the socket and the extension's id, so neither is a signature over a
// nonce the other side chose, and neither verifies through a relay at
// another address. A code showing makes a fourth state, Pairing, which
// goes back to Hello once the owner typed the code. Anyone on the machine
// can send a hello asking to pair, so such a hello gets a code of its own
// (at most Limits.Pairing show at once) and displaces nothing: not another
// code, not the pairing, not the live conn; only the code the owner types
// pairs, and the other codes then close. A conn that becomes Ready
// replaces the one live before it; commands (Send) go only to the live
// one, never to a conn still proving itself.
//
// In Ready and Pairing the conn pings with a data message every 20 s and
// closes after three pings unanswered. A command unanswered for a minute
// fails with one sentence and the extension is told to abandon it; until
// it confirms, or ten seconds pass, nothing else is sent and new commands
// wait in order.
//
// Concurrency: the Actor and each conn are protoactor actors; their state
// is touched only in Receive. The surface's link only sends messages to
// its conn. Timers are messages (a re-armed tick) and the clock is
// Config.Now, so tests drive time. The record is written inside the
// Actor's Receive (one small file, replaced atomically). Stopping the
// Actor stops its conns, which close their sockets and fail the commands
// they hold.
package extconn

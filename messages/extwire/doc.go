// Package extwire is the extension's wire format: one JSON text message per WebSocket message, with
// a "type". The extension speaks first, with a hello carrying its random
// nonce and no token. buddi answers a proof: a nonce of its own, the
// address the socket reached (buddi's end of it) and a signature, an
// HMAC-SHA-256 keyed by the SHA-256 of the token it stored, over both
// nonces, that address and the extension's id (Proof). The extension
// checks the signature with its own token and the address it dialled, and
// only then sends the token with its own proof over the same four things;
// buddi checks both and says ready. Neither side's proof is ever over a
// nonce the other chose alone, and neither verifies through a relay at
// another address. No command goes either way before ready. A hello
// asking to pair is answered with a code instead, and, once the owner
// typed it, with the token (paired); the extension then says hello again.
//
// Its messages carry the contract's errors and codes, so it imports
// messages; the contract names its inbound messages only as ExtIn.
package extwire

package messages

import "encoding/json"

// MaxAnswerBytes bounds one encoded answer of the agent and owner APIs
// (HTTP and MCP). Everything a driver reads from a page is capped at the
// source; this is the last bound, for whatever a cap missed.
const MaxAnswerBytes = 16 << 20

// Envelope is every answer of the HTTP API on the wire:
// {"ok": true, "result": …} or {"ok": false, "error": {"code", "message"}}.
// The server sends Envelope[Answer]; a client reads Envelope[json.RawMessage].
type Envelope[R any] struct {
	OK     bool   `json:"ok"`
	Result R      `json:"result,omitempty"`
	Error  *Error `json:"error,omitempty"`
}

// Raw is the envelope as a client reads it, the result left undecoded.
type Raw = Envelope[json.RawMessage]

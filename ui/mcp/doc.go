// Package mcp serves buddi's agent tools over the Model Context Protocol.
//
// `buddi mcp` runs a [Server] on stdio. It holds no browser and no state of
// its own: every tool call (browser.status, browser.act, browser.task) is
// forwarded to a running `buddi serve` as POST /api/tools/<tool> with the
// agent's bearer token, and the daemon's answer comes back as an MCP tool
// result. Failures an agent can act on (a stale ref, an unreachable daemon,
// a refused token) are tool results with IsError set and text
// "<code>: <one sentence>", never protocol errors.
//
// Each MCP session speaks for one conversation: a fixed one from [Config], or
// an id generated when the session makes its first call. A call may name
// another conversation in its "conversation" argument.
//
// Concurrency: the SDK runs each tool call on its own goroutine; a call owns
// its HTTP request, which dies with the call's context (client cancellation,
// session end, or the per-call deadline). The only shared state is the map
// from session to conversation id, guarded by a mutex. [Server.Run] owns its
// session: it returns once the client disconnects or its context ends, after
// the SDK has closed the session, then forgets ended sessions and closes idle
// HTTP connections.
package mcp

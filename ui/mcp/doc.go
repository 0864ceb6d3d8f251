// Package mcp serves buddi's agent tools over the Model Context Protocol, as
// browser_status, browser_act and browser_task: the agent API's tools under
// names every MCP client accepts (a dotted name is answered with an error
// naming the right one).
//
// It has two transports. `buddi mcp` runs a [Server] on stdio that holds no
// browser and no state of its own: every call is forwarded to a running
// `buddi serve` as POST /api/tools/<tool> with the agent's bearer token.
// Inside `buddi serve`, a [Handler] speaks MCP over streamable HTTP at /mcp
// and runs calls through a [Backend], the same path the HTTP API takes.
// Failures an agent can act on (a stale ref, an unreachable daemon, a
// refused token) are tool results with IsError set and text
// "<code>: <one sentence>", never protocol errors.
//
// Each MCP session speaks for one conversation: the call's "conversation"
// argument, else the Buddi-Conversation header (HTTP), else the fixed one of
// [Config] (stdio), else an id generated on the session's first call.
//
// Concurrency: the SDK runs each tool call on its own goroutine; a call owns
// its HTTP request or actor request, bounded by the call's context or
// deadline. The shared state is the map from session to generated
// conversation id and, over HTTP, the map from session to the agent that
// opened it, each guarded by its own mutex and pruned of the sessions the
// SDK no longer serves. [Server.Run] owns its session: it returns once the
// client disconnects or its context ends, after the SDK has closed the
// session. Sessions over HTTP end when the client deletes them, after
// [SessionIdle] without a request, or at [Handler.Close], which the daemon
// calls after its HTTP server stopped.
//
// Bounds over HTTP: an agent holds at most [SessionsPerAgent] sessions and
// all agents [SessionsTotal]; an agent opens [OpenBurst] at once and then
// one per [OpenEvery]; a session keeps only the protocol version, small
// capabilities and a clientInfo cut to a few hundred bytes. Past a bound,
// the initialize is answered with a JSON-RPC error whose message is
// "<code>: <one sentence>".
package mcp

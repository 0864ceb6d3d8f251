// Package apiclient is the one client of buddi's HTTP API: the CLI's owner
// commands, the MCP bridge, the test client and the load harness all call a
// daemon through it. It speaks the contract: requests carry the owner body
// or a tool's input, answers are messages.Envelope, and every failure is a
// *messages.Error with a stable code and one sentence, whether the daemon
// refused (its own code) or never answered (daemon_unreachable, timeout,
// cancelled, bad_answer).
//
// Two transports: net/http (the default; requests die with their context)
// and fasthttp's HostClient (WithFast: kept-alive connections, one per
// concurrent caller, no retries), for the load harness, whose client must
// never be what limits a run.
//
// Concurrency: a Client is safe for concurrent use and holds no state
// between calls beyond its transport's connection pool.
package apiclient

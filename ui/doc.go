// Package ui serves every surface people and agents reach over HTTP: the
// health check, the agent tool API, MCP over streamable HTTP at /mcp (the
// handler of ui/mcp, run down the tool API's own path) and the owner API.
// It holds no state of its own beyond the owner's token hash: every request
// becomes a message to the controller actor, awaited with a deadline.
//
// Concurrency: fasthttp runs each request on its own goroutine; handlers only
// read the Server's immutable fields and block on one actor future each.
// fasthttp's adaptor runs /mcp's net/http handler on a goroutine of its own
// per request and waits for it. Shutdown stops accepting, lets requests in
// flight finish until the deadline, closes what remains, and then ends the
// MCP sessions still open.
package ui

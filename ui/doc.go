// Package ui serves every surface people and agents reach over HTTP: the
// health check, the agent tool API and the owner API. It holds no state of
// its own beyond the owner's token hash: every request becomes a message to
// the controller actor, awaited with a deadline.
//
// Concurrency: fasthttp runs each request on its own goroutine; handlers only
// read the Server's immutable fields and block on one actor future each.
// Shutdown stops accepting, lets requests in flight finish until the
// deadline, then closes what remains.
package ui

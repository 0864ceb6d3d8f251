// Package daemon wires one running buddi: the instance lock on the data
// directory, the store, the owner token, the actor system with the ledger
// and the controller, the egress guard, the browser drivers and the HTTP
// surface. buddi serve, the end-to-end tests and the load test all start it
// the same way.
//
// Concurrency: Start builds everything in order and undoes what it built if
// a later step fails. Shutdown runs in reverse dependency order — surfaces,
// then the controller (which stops the sessions and closes the browsers),
// then egress, then the ledger and the store — each bounded by the context.
package daemon

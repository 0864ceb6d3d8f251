// Package daemon wires one running buddi: the instance lock on the data
// directory, the store, the owner token, the browser settings (the
// configuration, with <data>/browser/settings.json where the environment is
// silent), the mode root holding the modes this install offers (chosen here,
// the one place production code picks the simulated driver; switched only
// with no session open, which the controller ensures), the egress rules
// (swapped when air-gap is turned on or off), the actor system with the
// ledger and the controller, the routing table and event bus they share,
// the metrics, the actors' client (the gateway), the HTTP surface over it
// and, when a token is configured, the Telegram bot beside it. buddi serve,
// the end-to-end tests and the load test all start it the same way.
//
// Concurrency: Start builds everything in order and undoes what it built if
// a later step fails. Shutdown runs in reverse dependency order — surfaces
// (the Telegram bot, then HTTP), then the controller (which stops the
// sessions and closes the browsers), then egress, then the ledger and the
// store — and returns when ctx ends
// even if something has not stopped yet (it goes on in the background, and
// the store is then left open under its ledger).
package daemon

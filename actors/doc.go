// Package actors holds buddi's actor runtime: the actor system with its
// logger routed into slog, and the supervision strategy every supervisor
// uses. The actors themselves live in the sub-packages (controller, session,
// ledger).
//
// Concurrency: the system's dispatcher runs each actor's Receive on one
// goroutine at a time. A supervisor's strategy runs inside the supervisor;
// a delayed restart is a timer that only sends the restart system message.
package actors

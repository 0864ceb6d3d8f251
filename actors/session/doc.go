// Package session is one conversation's browser session as an actor: its
// task, step budget and expiry, its tabs, its latest observation and the
// refs in it, and the rules that pause it.
//
// States are behaviours: ready (waiting with its tabs open), working (one
// driver call in flight), paused (a pause rule fired; only release works),
// takenOver (the owner has it), closing (released or ended).
//
// Concurrency: all state is touched only in Receive. Driver calls run in a
// goroutine started by Receive and come back as a *done message carrying the
// sequence number and epoch they were started under; a done whose epoch or
// sequence is no longer current is answered as abandoned and never applied.
// The one piece of state that outlives a restart is Carry (the caller of the
// in-flight action), so a restarted session can answer that caller instead of
// leaving it to time out. Everything else is rebuilt from the ledger.
package session

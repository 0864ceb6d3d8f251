// Package session is one conversation's browser session as an actor: its
// task, step budget and expiry, its tabs, its latest observation and the
// refs in it, and the rules that pause it.
//
// States are values that carry their own data, and the session is always in
// exactly one: ready (waiting with its tabs open), working (one driver call
// in flight: its sequence, input, caller and cancel), paused (a pause rule
// fired: why), takenOver (the owner has it: the hand child, if any),
// handingBack (resumed, waiting for the hand to let go: who to answer) and
// closing (released or ended). What the ledger stores (paused, taken over)
// is written from the state, never the other way round except at start.
//
// A conversation bound to a surface that shows every step (Telegram; the
// controller says so with BindSurface) is watched: each of its steps
// leaves a picture of the page in its StepTaken event, and the refusals its
// agent reads name the way back on that surface.
//
// Concurrency: all state is touched only in Receive. Driver calls run in a
// goroutine started by Receive and come back as a *done message carrying the
// sequence number and epoch they were started under; a done whose epoch or
// sequence is no longer current is answered as abandoned and never applied.
// The one piece of state that outlives a restart is Carry (the caller of the
// in-flight action, so a restarted session can answer that caller instead of
// leaving it to time out, and the steps used, which the ledger commits up to
// ledger.LazyWait after they are taken). Everything else is rebuilt from the
// ledger. Owner
// controls act at once and are answered once durable: the ledger write runs
// in the owner's lane and is retried off the mailbox until it lands. The
// session shows its state in its routing entry and publishes events on the
// bus; neither blocks. While someone watches (a dashboard is open), each
// act is followed by a snapshot of the page for the owner, taken and scaled
// off the mailbox after the agent was answered. A take-over's hand is the
// session's child: stopping
// the session stops it, and a hand-back waits for it to let go.
package session

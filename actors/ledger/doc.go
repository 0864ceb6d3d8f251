// Package ledger holds buddi's durable state in Pebble: the global Stop, the
// owner's token hash, agents and their token hashes, tasks, sessions'
// identity, expiry and paused state, and approvals.
//
// Store opens the database and reads it; the Actor is the only thing that
// writes it. Every write the Actor acknowledges was committed before the
// acknowledgement was sent, with an fsync unless the write asked for none
// (step counters, which survive a process crash but not a power cut).
//
// Concurrency: the Actor applies writes one at a time in mailbox order, so
// writers never interleave. Store reads are safe from any goroutine and see
// every acknowledged write. The Store is closed by whoever opened it,
// after the actors have stopped; nothing may read it after that.
package ledger

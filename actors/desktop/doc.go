// Package desktop is the desktop lock of Use my apps: one conversation at a
// time controls the owner's computer. A conversation takes the lock with its
// first call and keeps it between tool calls and while the owner has taken
// over; it gives it back when it releases control or closes, or when its
// lease runs out without a call. Another conversation asking meanwhile is
// refused, whatever mode the install is in. The owner's Stop of computer
// control revokes the lock and refuses every conversation until the owner
// resumes it; that, and the holder, are kept in the ledger, so they hold
// across a restart.
//
// Concurrency: the lock is a protoactor actor; its state lives in its
// mailbox. Holder changes go to the ledger in the agents' lane without
// waiting; Stop and resume go in the owner's lane and are answered once the
// ledger has them.
package desktop

// Package audit keeps buddi's audit trail: one JSON line for every agent
// act and every owner control, in <data dir>/audit/audit.jsonl, rotated to
// audit.jsonl.1 … audit.jsonl.N so the files never hold more than
// (N+1) × the size of one. Lines are only ever appended; files are the
// owner's alone (0600 in a 0700 directory).
//
// Actors wraps the actors' client the surfaces call: it sees every agent
// call and every owner control once, at the edge, and describes it from
// a whitelist of fields (describe.go). Nothing of a take-over's input
// crosses that client (the hand has its own socket), and no field that
// carries a typed value, a token or a code is ever read: a fill is logged
// as a fill, its value is not.
//
// Concurrency: Add appends to a buffer under a mutex and wakes the one
// writer goroutine, which lets lines gather for Linger (unless many wait
// already), swaps the buffer out and writes it with one write; an act
// never waits on the disk. The answer to an act may so leave before its
// line is in the file (as it always could): a kill -9 loses the lines of
// at most the last Linger, a power loss whatever the kernel had not
// synced; the file is synced at Close. A writer that falls
// MaxPending lines behind makes Add wait, rather than drop an
// acknowledged line. Close stops the writer after it has written every
// line added before Close began, then syncs and closes the file; the
// daemon closes the log after the surfaces, so nothing is added after.
package audit

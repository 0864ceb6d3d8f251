package messages

// LedgerWrite is a batch of puts and deletes the ledger applies atomically.
// Answered with *LedgerWritten once committed.
type LedgerWrite struct {
	Ops []LedgerOp
	// NoSync skips the fsync: the write survives a process crash but not a
	// power cut. Only counters that are rewritten often use it.
	NoSync bool
}

// LedgerOp puts Value (JSON-encoded) at Key, or deletes Key when Delete is set.
type LedgerOp struct {
	Key    []byte
	Value  any
	Delete bool
}

// LedgerWritten acknowledges a LedgerWrite.
type LedgerWritten struct{ Err error }

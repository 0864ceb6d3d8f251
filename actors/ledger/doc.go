// Package ledger holds buddi's durable state in Pebble: the global Stop, the
// owner's token hash, agents and their token hashes, tasks, sessions'
// identity, expiry and paused state, and approvals. Its records are storage,
// not the API: the actors turn them into the contract's views.
//
// Store opens the database and reads it; the Actor is the only thing that
// writes it. Every commit is fsynced, and every write the Actor
// acknowledges was committed before the acknowledgement was sent. A step
// counter (Store.SetSteps: one on every act, and nobody waits on it) is no
// write at all: sessions set it in a table the store keeps, and it is
// durable at most LazyWait and one commit after it was set.
//
// Writes are committed in groups: a write is staged as it arrives and the
// actor sends itself a flush marker, so every write already waiting joins
// the same batch and one fsync. Every commit takes the step counters set
// since the last one along; counters alone wait LazyWait for more (the
// first counter set wakes the actor, the others cost no message), so the
// counters of many conversations share one commit, and the first write
// commits them at once. The mailbox has two lanes: a Write marked
// Owner (Stop, take-over, resume, release, tasks, agents) is taken ahead of
// agent-made writes still waiting and committed at once with whatever is
// staged, so an agent's flood never delays what the owner decided. Every
// op is stamped in the order it was made; an op older than one already
// committed for its key is skipped, so a write that overtook another in the
// owner's lane is never overwritten by it. The order of a committed op is
// remembered for OrderLife (at most twice that while writes go on; an idle
// ledger forgets them all). Persist retries a write until it lands,
// answering its caller in time either way.
//
// With a Retention, a timer prunes the records of conversations that ended
// longer ago; a pruning round that deleted anything, or after which other
// writers deleted records, compacts the store so the space comes back.
//
// The refusal record is bounded: a commit that takes it past MaxRefusals
// deletes its oldest entries, whoever wrote them.
//
// Concurrency: the Actor stages and commits in its Receive, one batch at a
// time. Store reads are safe from any goroutine and see every acknowledged
// write; SetSteps is safe from any goroutine. BeforeCommit is a seam tests stall the ledger at. The Store is
// closed by whoever opened it, after the actors have stopped; nothing may
// read it after that.
package ledger

// Package stop is the one owner of the owner's Stop: an actor at the root,
// beside the ledger, that decides whether all browser access is stopped.
// A Stop or a resume from any surface (the dashboard, Telegram, the CLI,
// through the gateway) and, in a cluster, a change another member made
// (the member's watch of etcd, messages.ClusterStop) arrive in its mailbox,
// which orders them: each decision gets the next generation, is shown at
// once on the Board, told to the follower (the controller, which refuses
// agents in its routing table and fans the Stop out to the sessions, then
// answers Settled), published as messages.StopChanged, and handed to one
// latest-wins writer that makes it durable in the ledger and, in a
// cluster, in etcd. The owner is answered once the sessions dropped their
// work and the decision (or a later one) is durable, or says what is not.
//
// Because it is the controller's sibling and not its child, a controller
// restart loses nothing: the decision stays here, the writer goes on, and
// the restarted controller reads the Board at its start and asks to
// follow, which tells it the decision in force.
//
// In a cluster the actor also keeps what the watch says of etcd (heard
// from, or unreachable and why) on the Board: a member refuses new work
// until it knows the cluster's Stop. A change from etcd is taken only when
// every decision made here has reached etcd, so an older flag never lifts
// a newer local Stop.
//
// Concurrency: the actor's state is touched only in Receive. The Board is
// written only by the actor and read by anyone. The writer is one
// goroutine holding at most one record to write, always the latest: the
// actor replaces it without waiting, so a record superseded before it
// landed is never written after its successor. It reports back as
// messages. Stopping the actor ends the writer after its attempt in flight.
package stop

// Package member is this buddi as a member of a cluster (serve --cluster):
// what a cluster adds to one host, which the daemon only starts. Open
// reads the cluster's secret and TLS files and reaches etcd (a member that
// cannot reach it does not start: it could not know the owner's Stop);
// Join, once the controller runs, is handed the parts it calls (Parts)
// and:
//
//   - feeds the Stop's actor etcd's flag, and the controller the
//     cluster's agents, site answers and member list (state.go,
//     register.go), and gives the controller the SharedAgents and
//     SharedSites it writes through;
//   - registers this member with its capacity, and mirrors every task it
//     changes to etcd, where the member that adopts a conversation next
//     finds it (register.go, state.go);
//   - joins the grains (cluster/grains): every conversation is a grain
//     (actors/grain) on one member, reached from every member; its
//     Conversation (conversation.go) claims it in etcd, adopts a task that
//     moved with the steps it has used (claim.go), runs calls through this
//     member's own actors, and writes the steps used before an answer goes
//     back; the messages that cross members are registered in grains.go;
//   - relays the events of sessions, tasks and site requests to the
//     other members, and steps and snapshots while someone watches there
//     (relay.go), and carries a take-over's hand across members (hand.go).
//
// Actors is what the surfaces call in a cluster: agent calls and controls
// of one conversation go to its grain; the lists are every member's.
//
// The member imports neither the daemon nor any surface or mode (its
// dependency test holds it): a session and its browser never leave their
// member.
//
// # Concurrency
//
// Join starts the watches of etcd (their callbacks send to the actors and
// never touch the member's state), the registration's capacity updates,
// the task mirror and the relay, each a goroutine that ends with the
// context Close cancels. A conversation's state is touched only in its
// grain's Receive, which never blocks: what reaches etcd or the actors
// (the claim, a moved task's adoption, the calls, the idle grain's check
// of the store) runs off the grain's mailbox and comes back as a message. The hands' halves are kept in
// sync.Maps, reached from the grains' Local and the hands' own
// goroutines. Close leaves the grains first (handing this member's
// conversations to the others), then ends the watches and what they
// started and waits for them, and last closes the etcd client, which
// deletes this member's registration.
package member

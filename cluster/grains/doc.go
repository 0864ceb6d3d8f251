// Package grains makes a conversation's session a virtual actor (a grain)
// on protoactor-go's own cluster: one kind, "session", identified by the
// conversation id, activated on one member and reached from any member.
// Placement and routing are protoactor's: its etcd provider keeps the
// member list (under <prefix>/protoactor/<cluster name>/ in etcd, apart
// from cluster/shared's keys) and its disthash identity lookup picks the
// member that owns an identity by rendezvous hashing over the members that
// host the kind, asking that member's placement actor to activate it.
//
// Messages cross members as a *wrapperspb.BytesValue holding an envelope:
// a registered type name, a newline, and the message as JSON ([Registry]).
// [Member.Request] encodes, finds the activation through protoactor's pid
// cache and identity lookup, sends once and decodes the answer; an
// activation's middleware decodes before the caller's actor sees a message
// and encodes what it answers to another member. A type that is not
// registered is refused with an error on either side, never a panic.
//
// When the member holding a grain leaves, the next call through another
// member activates it again there, from the producer: its state is new,
// which the caller must treat as a restarted session.
//
// # Concurrency
//
// A [Member] owns one actor system, its remote server, the cluster and the
// etcd provider's client. Request may be called from many goroutines; it
// blocks until the answer or the deadline. Each activation is an actor:
// the caller's actor receives decoded messages in its own Receive, one at
// a time. Shutdown stops, in order: the cluster's activations and
// identity lookup, the provider's etcd registration and watch, gossip, the
// remote server, and then the provider's etcd client context; it is safe
// to call more than once.
//
// # What protoactor does not do, at the version buddi pins
//
// Its cluster races on its own state (the disthash lookup's rendezvous
// table, the etcd provider's shutdown flag, the member and block lists,
// gossip's shared rand.Rand, grpc's global logger replaced by every remote
// start), so the cluster tests run in a build without the race detector
// (TestClusterWithoutTheRaceDetector). A member's Shutdown leaves its etcd
// client's connection and two log-throttle goroutines behind: no goleak
// here. StartMember sleeps a second; a graceful Shutdown two more. The
// disthash lookup asks the owner to activate with a fixed five-second
// wait and no context; Request returns when its ctx ends, and the lookup
// runs on (one goroutine, five seconds at most) when the owner has just
// died. protoactor's own cluster.Request is not used: it retries a
// message after a timeout, so a caller that gave up could still see it
// delivered; Request sends at most once per activation instead. protoactor's hard Shutdown keeps the member registered in
// etcd (its lease kept alive); Shutdown here deregisters it first.
package grains

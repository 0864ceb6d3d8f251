// Package grains makes a conversation's session a virtual actor (a grain)
// on protoactor-go's own cluster: one kind, "session", identified by the
// conversation id, activated on one member and reached from any member.
// Membership is protoactor's (Config.Membership, membership.go): its etcd
// provider keeps the member list by default (under
// <prefix>/protoactor/<cluster name>/ in etcd, apart from cluster/shared's
// keys); its Kubernetes provider (pods' labels; linked with the k8s build
// tag) may keep it instead. Config.MemberTLS makes the members' transport mutual TLS.
// Ask and TellTo reach one member's Local; Each and Tell every member's.
// A Local answer that must wait (on an actor, on I/O) is a Later, which
// the member's local actor runs off its mailbox.
// Placement is buddi's own identity lookup, which
// respects each member's Config.Capacity (its browser profiles):
//
//   - An identity's members in rendezvous order are the members hosting
//     the kind, by FNV-1a over the identity and each address, the hash
//     protoactor's disthash picks its one owner by. The first of them is
//     the identity's placement authority: its placer actor keeps the
//     identity's live activation.
//   - For an identity with none, the authority asks the members in that
//     order to activate it; each member's activator refuses while it holds
//     Capacity activations (0 is no limit), and the next member is asked.
//     With room everywhere a session lands on its authority, as disthash
//     would place it. When every member refused, Request returns a
//     *NoRoomError (ErrNoRoom) naming the members and the sessions they
//     hold in all; the message was not sent.
//   - An activation that stops (it stops itself, is poisoned, or its
//     member shuts down) frees its slot, and its member tells the
//     authority. A caller that finds an activation gone tells the
//     authority too, which then places the identity anew.
//   - When the topology changes, an authority forgets the activations on
//     members that left and those it no longer places, and every member
//     reports the activations it holds to their authority. For five
//     seconds after a change an authority asks every member whether it
//     holds an identity it does not know before it places it, as a report
//     may be on its way; so a member joining moves no session. A report
//     later still wins over an activation placed meanwhile, which is
//     stopped. A member asked to activate an identity by a member that is
//     not its authority on the activating member's own list (one of the
//     two lists is behind) reports the activation to that authority at
//     once, not at the next change of the list.
//
// Free slots are not shared by gossip: a member's own refusal is the only
// exact count (gossip is late, so the refusal would stay), protoactor's
// gossip races on its own state at this version, and asking a full member
// costs one round trip per new session only.
//
// Messages cross members as a *wrapperspb.BytesValue holding an envelope:
// a registered type name, a newline, and the message as JSON ([Registry]);
// the placement actors' messages do too, in a registry of their own. A
// sealed registry ([Registry.Seal]) adds a line between them: the time,
// a random 16-byte nonce and an HMAC over all of it. The receiver refuses
// an envelope whose MAC does not verify, whose time is more than a minute
// from its clock, or whose nonce it has taken within that minute (a copy
// sent again); every send is encoded afresh. A member seals its placement
// registry with its session registry's key, so a placement message
// without a valid seal is refused too. A sealed member routes and sends
// only to the members of protoactor's (unsigned) list that answered its
// sealed hello ([Member.Members], admission.go).
// [Member.Request] encodes, finds the activation through protoactor's pid
// cache or the placement authority, sends once and decodes the answer; an
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
// A [Member] owns one actor system, its remote server, the cluster and its
// membership provider's client. Request may be called from many goroutines; it
// blocks until the answer or the deadline. Each activation is an actor:
// the caller's actor receives decoded messages in its own Receive, one at
// a time. Shutdown stops, in order: the provider's etcd registration and
// watch, the activations and the placement actors, gossip (graceful
// only), the remote server, and then the provider's etcd client; it is
// safe to call more than once.
//
// # What protoactor does not do, at the version buddi pins
//
// Its etcd provider keeps a member's entry on a 3-second lease that
// cannot be changed, and its member list blocks, for as long as the
// process runs, a member it once saw leave: a keep-alive late by three
// seconds on a loaded machine cut a member off for good. buddi keeps the
// etcd member list itself (membership_etcd.go), in the same keys and JSON,
// on a lease of [MemberLease], with a deadline on every etcd call; an
// entry of its own that lapsed is written again and logged as an error.
// Its cluster races on its own state (the member and block lists,
// gossip's shared rand.Rand, grpc's global logger replaced by every remote
// start), so the cluster tests run in a build without the race detector
// (TestClusterWithoutTheRaceDetector). A member's Shutdown leaves
// protoactor's log-throttle goroutines behind: no goleak here. StartMember sleeps a
// second; a graceful Shutdown two more. The identity lookup interface has
// no context and answers only a PID, so Request asks the placement
// authority itself, with its ctx; an authority waits up to five seconds
// for a member it asks to activate, and a placement runs on after a
// caller gave up. A graceful cluster Shutdown calls the lookup's Shutdown
// twice and a hard one never: it runs once, and Shutdown here calls it on
// a hard shutdown. protoactor's own cluster.Request is not used: it
// retries a message after a timeout, so a caller that gave up could still
// see it delivered; Request sends at most once per activation instead.
// protoactor's hard Shutdown keeps the member registered in etcd (its
// lease kept alive); Shutdown here deregisters it first.
package grains

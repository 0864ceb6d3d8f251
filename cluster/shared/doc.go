// Package shared holds the state every buddi host in a cluster must agree
// on, kept in etcd: the Stop flag and the list of members. An owner's Stop
// (or resume) is written once, through a revision-checked transaction, and
// every host learns it from its own watch. Each member keeps its own key
// under <prefix>/members/<id> (its address and capacity) alive with a lease
// ([Store.Register]); a member that dies disappears within [MemberTTL]
// seconds, and [Store.WatchMembers] follows the list.
//
// A [Store] is one etcd client. [Store.SetStop] returns only after etcd has
// committed the write, so a Stop may be acknowledged to the owner when it
// returns. [Store.Stop] reads the flag linearizably. [Store.Watch] reads it
// once, then follows every later change, and says when etcd cannot be
// reached and when it can again.
//
// Every record the members share (the Stop flag, agents, tasks, steps,
// site answers, homes, members) is signed with a key derived from the
// cluster's [Secret], which is never in etcd, and verified on every read,
// list and watch; what does not verify is refused and logged (see
// sign.go). Each carries a generation under its MAC, and a Store refuses
// a record older than the newest it has seen at its key, so a validly
// signed record written back later is refused too; a removal is a signed
// tombstone; a member that starts learns the generations the running
// members have verified before it reads anything (see gen.go and
// gensync.go for what a member that has seen nothing can and cannot tell). The first member to [Store.Join] signs a check record and
// a "not stopped" flag; from then on a missing flag counts as a Stop.
//
// Failing closed is the caller's rule and this package's: a host that cannot
// reach etcd refuses new work ([Event.AllowsWork] is false), and a stored
// value that cannot be decoded counts as stopped, never as running.
//
// # Concurrency
//
// A Store is safe for use by many goroutines. Each Watch owns one goroutine,
// which owns its etcd watch stream and its reachability probe and calls the
// callback, one event at a time, in the order etcd committed the changes.
// The goroutine ends when the Watch's context is cancelled or the Store is
// closed. WatchMembers does the same for the member list. Each
// Registration owns one goroutine, which owns its lease and keep-alive and
// ends with Leave or Close after revoking the lease. Close stops accepting
// new calls, waits for every Watch and Registration goroutine to end, and
// only then closes the etcd client; a callback must therefore not call
// Close.
package shared

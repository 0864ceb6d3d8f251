// Package controller is the supervisor at the top of buddi's actor tree. It
// owns the global Stop, the agents, the tasks and the registry of sessions
// (placed onto browser profiles, eight to a profile), and spawns every
// session as its child. The ledger is its sibling under the root, so that
// the controller's own restart never restarts the only writer of the store.
//
// Concurrency: all of that state is touched only in Receive. Agent calls are
// checked here (token, grant, Stop, task) and forwarded to the session, which
// answers the caller directly. Writes the owner must be able to rely on (Stop,
// tasks) are acknowledged only after the ledger has them. Sessions push their
// state here whenever it changes, so listing sessions never waits on them.
// Stopping the controller stops its sessions, then closes the browsers.
package controller

// Package routes is the routing table the controller pushes its authority
// into, so that agent calls for a conversation with a running session reach
// that session without waiting in the controller's mailbox.
//
// The controller is the table's only writer: who may call (token hashes and
// their agents), which conversation's session runs where and for which
// agent, whether all access is stopped, and whether navigations must be
// checked against the owner's site answers. The gateway reads it for every
// call and sends the call straight to the session only when the controller
// would have let it through unchanged; anything else goes to the controller.
// Sessions publish their latest state into their own entry, so listing
// sessions reads the table rather than asking each session.
//
// Concurrency: the maps are guarded by one RWMutex; the controller writes
// them from its Receive, readers take the read lock for a lookup. A
// session's shown state is an atomic pointer only that session stores.
package routes

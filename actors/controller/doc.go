// Package controller is the supervisor at the top of buddi's actor tree: a
// thin routing actor over small parts, each with its own tests: the
// registry of agents and their tokens (registry), the task state machine
// (tasks), the owner's site answers (sitegate), the owner's paired Telegram
// chat and the conversations bound to it (chat), the dashboard's signed-in
// devices (devices), and the pool of browser profiles sessions are placed
// on, opened from the install's mode (pool). It applies the owner's browser
// settings (the mode among them) only with no session open, closing every
// browser first, and it opens the owner's own browser sessions ("Open a
// browser"): conversations of the built-in agent "owner", which has no
// token, each with a task the owner gave.
// It spawns every session as its child. The ledger and the owner's Stop
// (actors/stop) are its siblings under the root, so that the controller's
// own restart never restarts the only writer of the store nor loses a
// Stop: the controller follows the stop actor's decisions, refuses agents
// while one holds, fans a Stop out to the sessions and says when they
// dropped their work (stop.Settled).
//
// Agents are known by an ID given once and never reused: tasks, sessions
// and routes belong to the ID, so an agent removed and added again under
// its name is another agent. Removing one ends its sessions and waiting
// requests. What one agent can make the controller keep is bounded: its
// waiting requests (tasks.MaxPending, lapsing after tasks.PendingLife,
// rate-limited by limits), the sessions its own requests start
// (AgentSessions), and the history of finished tasks (tasks.MaxFinished).
// The book of tasks is swept on a timer (a quarter of the retention, at
// most a minute) as well as on requests: waiting requests lapse and
// finished tasks past the retention go, with their records and chat
// binding, in a daemon no request reaches.
//
// The controller keeps authority over who may call which session, and
// pushes it into the routing table (routes) the gateway reads: agent calls
// that need no decision of the controller's go straight to their session.
// Everything else (task requests, calls during a Stop, navigations the
// owner's site answers must cover, calls without a session) comes here.
//
// Concurrency: all state is touched only in Receive; the routing table is
// written only from here. Messages are never changed after they are
// received: a call let through becomes a new AgentCall for the session,
// which answers the caller directly. Owner writes (tasks, agents, sites)
// go to the ledger's owner lane. The Stop is read from the stop actor's
// Board, never kept here. A message the
// controller does not know is logged and counted. Stopping the controller
// stops its sessions, then closes the browsers through the mode, bounded
// by a deadline.
package controller

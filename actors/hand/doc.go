// Package hand is the remote hand: while the owner has taken a page over,
// it takes the owner's pointer and keys from one dashboard tab to that page
// and (through its child, the pacer) the page's picture back.
//
// The hand pins the page that was active when the tab attached and never
// follows another tab. Every input is checked again here (a position on the
// page's last picture) and queued in order; the queue runs one input at a
// time off the mailbox, so the tab never waits for a round trip, and a move
// that has not started yet is replaced by a newer move (never a press, a
// release, a wheel step or a key). Nothing typed is kept: a typed
// character lives in the queue until it is sent and is never logged,
// published or put in an error.
//
// The lease: the tab's dashboard sign-in is checked at most a second after
// any input and at least every 30 s, and at once when the surface asks
// (HandLink.Recheck: the tailnet changed); a failed check ends the hand at once,
// as do two hours, ten minutes without input, two unanswered pings (one
// every 15 s) and a tab two megabytes behind. The pinned page closing,
// leaving the allowed sites or losing its debugger ends it too. An ending
// tells the session (HandEnded), which keeps the take-over without a hand
// until the owner takes over again. The tab's socket closing only detaches
// it: another tab (or Reconnect) may attach.
//
// Give back (GiveBack, which resume sends) is ordered: the hand refuses new
// input, lets the queued input finish, releases what it holds (mouse
// buttons, modifier keys), stops the screencast and the pacer, and only
// then answers HandReleased. Stopping the hand (release, Stop, the session
// ending) does the same without the queued input that had not started.
//
// Concurrency: the hand is an actor, the session's child; its state is
// touched only in Receive. Pinning, input, the sign-in check and letting go
// run on goroutines and come back as messages; timers are messages. The
// link the surface holds only sends messages, tagged with the attachment
// they belong to, so a late message of a detached tab is ignored.
package hand

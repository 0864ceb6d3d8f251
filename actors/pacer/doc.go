// Package pacer is the remote hand's screencast pacer: it sends the
// dashboard tab the page's newest picture at the pace the tab's link
// allows. Exactly one frame is on the wire at a time and at most one waits
// (the newest: every frame in between is dropped); the tab's ack of the
// frame on the wire releases the waiting one. Frames start at 960×600,
// JPEG quality 50; a tab more than 256 KB behind for a second gets 640×400
// at quality 40 until it has been clear for five seconds. "Behind" is what
// a sender of every frame would have queued for the tab over the last
// second: the bytes the screencast made less the bytes the tab drew. A tab
// that stalls while the page makes two megabytes of pictures (counted from
// when the frame on the wire went out) is told to its parent (the hand),
// which ends.
//
// Concurrency: the pacer is an actor, a child of the hand; its state is
// touched only in Receive. The driver's screencast calls the sink on the
// driver's goroutine, which only sends the frame to the pacer. Starting
// and restarting the screencast run off the mailbox. Its timer is a
// message. The hand stops the screencast (the pin's StopCast) and then the
// pacer, so no frame reaches the tab after the hand let go.
package pacer

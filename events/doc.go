// Package events pushes typed changes from the actors to whoever watches:
// the dashboard, Telegram, tests. A Bus takes messages.Event values from
// publishers and hands each to every Subscription whose Filter wants it.
//
// A subscription's queue is bounded and coalescing: events carry state, not
// deltas, so a newer event with the same key replaces the one still waiting
// (in its place), and when the queue is full the oldest entry is dropped and
// counted. Publishing never blocks and costs a lock per subscriber, so a
// slow surface can never slow a session; it only sees fewer, newer events,
// and Dropped tells it to read the full state again (the owner API's lists).
//
// A surface subscribes through the actors' client (the gateway), which
// returns a *Subscription, and consumes it in its own goroutine:
//
//	sub := actors.Subscribe(events.Filter{Kinds: messages.KindSession | messages.KindStep})
//	defer sub.Close()
//	for {
//		ev, err := sub.Next(ctx) // or select on sub.Ready() and sub.Drain()
//		if err != nil {
//			return // ctx ended or the subscription closed
//		}
//		... // write ev to a WebSocket, send a photo to Telegram
//	}
//
// A WebSocket surface sends what Drain returns as one frame per wake-up; a
// Telegram bot filters on KindStep and KindApproval. Neither imports actor
// internals: the events and their fields are the contract in messages.
//
// Concurrency: Publish may be called from any goroutine (actors call it
// from Receive); each Subscription has its own mutex, taken briefly by
// Publish and by the consumer. The Bus holds its subscribers in a
// copy-on-write slice, so Publish never waits on Subscribe or Close. One
// goroutine should consume a Subscription; Close may be called from any.
package events

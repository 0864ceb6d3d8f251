// Package telegram is buddi's Telegram surface: a bot (on telebot) that the
// owner pairs with their private chat, and through which a conversation
// bound to that chat is followed from a phone. After every step of a bound
// conversation it sends the page as a photo, captioned with the page's
// title, the step in words, "Step n of max" and the failure, if any, with a
// Take over link to the dashboard; it carries the owner's /browser
// commands and the approval cards (task requests and sites) as inline
// buttons. Everything from anyone but the paired owner in the paired chat
// is dropped without an answer.
//
// The bot is a subscriber of the actors' events (package events) through
// the actors' client, like every surface: it never imports an actor. A
// slow chat never slows a session: events wait in the subscription's
// bounded, coalescing queue, and photos wait in the bot's own outbox, which
// keeps only the newest step of each conversation when Telegram's pace
// (about one message a second per chat, and any retry_after it asks for)
// holds it back.
//
// Nothing the agent was not allowed to see leaves: each picture passes the
// checks of guard.go (a readable JPEG, a browser mode, a page on the
// install's browser hosts) or the step is reported in words only. Later
// modes plug their own check in through Config.Checks.
//
// Concurrency: a started Bot runs three goroutines. The poller owns the
// connection to getUpdates and the handling of each update, one at a time
// (a flood of updates is read as fast as Telegram gives it and dropped,
// unless it is the owner's). The watcher owns the event subscription and
// turns events into outbox items. The sender owns the outbox's delivery
// and the pace. State they share (the pairing, the cards, the pages sent,
// the pending pairing code) sits behind Bot.mu, held only briefly and never
// across a call to Telegram or the actors. Close cancels the bot's context,
// which ends every request in flight, and waits for the three to return.
// Every call into telebot is guarded against panics (it asserts on answer
// fields a broken server may not send), so a garbled answer is an error,
// never a crash.
package telegram

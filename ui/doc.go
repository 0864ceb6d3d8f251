// Package ui serves every surface people and agents reach over HTTP: the
// health check, the agent tool API, MCP over streamable HTTP at /mcp (the
// handler of ui/mcp, run down the tool API's own path), the owner API,
// /metrics, and the owner's dashboard: its embedded page (ui/web), its
// sign-in and its events WebSocket. Every request is checked against the
// contract (messages) and handed to the actors' client, which answers within
// the request's deadline. ui imports the contract, events and that client's
// interface (Actors), never an actor or a driver.
//
// The owner is either the holder of the owner token (the CLI, programs),
// or a browser signed in to the dashboard: a one-time link (printed by
// `buddi serve`, and by `buddi open` through POST /api/signin-links) is
// exchanged for a session cookie, HttpOnly and SameSite=Strict, Secure when
// buddi is reached over TLS. The ledger keeps the signed-in devices (only
// their cookies' hashes); the server keeps the unspent links, in memory.
// Every write of a signed-in browser carries the CSRF token derived from
// its cookie and an Origin on the list (ui/origin), under a Host on the list.
// Failed sign-ins count against a limiter (ui/limit) that Telegram's
// pairing shares (its senders' keys count on their own).
//
// The dashboard polls nothing: GET /api/events upgrades to a WebSocket
// (gws, on the connection fasthttp hands over) that sends a hello with the
// whole state, then one frame per event, and a fresh hello whenever its
// queue had to drop events. The journal (ui/journal) keeps each recent
// conversation's timeline and last snapshot for the conversation view.
// Surfaces that push (the dashboard's WebSocket, Telegram) subscribe through
// Actors.Subscribe and consume the events in their own goroutine; see
// package events. The owner API's Telegram routes pair the chat through the
// bot (ui/telegram, behind the TelegramBot interface: the pairing link and
// the bot's own state) and bind conversations through the actors, like
// every other control.
//
// GET /api/browser/hand?conversation=C upgrades the same way, under the same
// checks, to the remote hand's socket: the page's first message is its
// CSRF token, then the socket is attached to the conversation's hand (one
// tab at a time); the page's picture goes out as binary frames and the
// owner's pointer and keys come in as small JSON messages, decoded and
// checked (handwire.DecodeInput) and never logged.
//
// GET /api/extension/socket is the "Your browser" extension's: no cookie,
// but only a loopback peer without proxy headers, under a loopback Host,
// from the Origin chrome-extension://<an accepted id>. Its messages are
// decoded strictly (extwire.Decode) and handed to the extension
// connection actor, which proves both ends before anything else; one
// writer goroutine sends what the actor queues, and closes when told.
//
// Concurrency: fasthttp runs each request on its own goroutine; handlers only
// read the Server's fields and block on one answer each. fasthttp's adaptor
// runs /mcp's net/http handler on a goroutine of its own per request and
// waits for it. Each events socket has two goroutines: the hijacked
// connection's, which reads (pongs, the close), and a writer that owns the
// socket's subscription, pushes frames, pings and re-checks the device every
// 20 seconds; signing a device out closes its sockets at once. Each hand
// socket has the same two: the connection's reads the owner's input and
// passes it to the hand; a writer sends frames, pings and the end, and
// never blocks the hand (the pacer keeps one frame on the wire). The journal
// has one goroutine; a browser install started from the dashboard has one.
// Shutdown stops accepting, closes the sockets, lets requests in flight
// finish until the deadline, closes what remains, and then ends the MCP
// sessions, the install and the journal.
package ui

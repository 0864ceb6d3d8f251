// Package ui serves every surface people and agents reach over HTTP: the
// health check, the agent tool API, MCP over streamable HTTP at /mcp (the
// handler of ui/mcp, run down the tool API's own path) and the owner API. It
// holds no state of its own beyond the owner's token hash: every request is
// checked against the contract (messages) and handed to the actors' client,
// which answers within the request's deadline. ui imports the contract,
// events and that client's interface (Actors), never an actor or a driver.
//
// Surfaces that push (the dashboard's WebSocket, Telegram) subscribe through
// Actors.Subscribe and consume the events in their own goroutine; see
// package events. The owner API's Telegram routes pair the chat through the
// bot (ui/telegram, behind the TelegramBot interface: the pairing link and
// the bot's own state) and bind conversations through the actors, like
// every other control; ui/limiter counts failed secrets for the surfaces
// that check one.
//
// Concurrency: fasthttp runs each request on its own goroutine; handlers only
// read the Server's immutable fields and block on one answer each. fasthttp's
// adaptor runs /mcp's net/http handler on a goroutine of its own per request
// and waits for it. Shutdown stops accepting, lets requests in flight finish
// until the deadline, closes what remains, and then ends the MCP sessions
// still open.
package ui

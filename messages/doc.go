// Package messages is buddi's typed contract: the messages actors and
// surfaces exchange, the answer every agent and owner request gets, the
// stable codes beside every refusal (with one table of what each code means
// over HTTP), the table of browser.act's actions, the decoding and checking
// of input at the edge, the events pushed to subscribers, and the envelope
// the HTTP API wraps answers in.
//
// It imports nothing of buddi's: drivers, egress, the actors, the surfaces
// and the API client all build on it. Messages are plain structs; actors
// switch on pointers to them, so always send a pointer, and never change a
// message after it was sent. Storage records are not part of the contract:
// the ledger keeps its own, and the actors turn them into the views here.
package messages

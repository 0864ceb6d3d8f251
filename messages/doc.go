// Package messages holds the typed messages exchanged between actors and the
// surfaces (HTTP, CLI, MCP). They are plain structs with no logic; actors
// switch on pointers to them, so always send a pointer.
package messages

package ui

import (
	"context"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// Actors is what the surfaces need of the actors: the actors' client (the
// gateway) satisfies it. Everything crossing it is the contract.
type Actors interface {
	// Tool answers one agent call, or says why no answer came.
	Tool(ctx context.Context, c *messages.ToolCall) (*messages.ToolResult, *messages.Error)
	// Owner answers one owner control.
	Owner(ctx context.Context, msg any) *messages.OwnerReply
	// Identify names the agent whose token hashes to tokenHash.
	Identify(ctx context.Context, tokenHash string) (string, *messages.Error)
	// Health is what /healthz shows, as the actors know it.
	Health(ctx context.Context) (*messages.Health, *messages.Error)
	// Subscribe opens a subscription to the actors' events.
	Subscribe(f events.Filter) *events.Subscription
}

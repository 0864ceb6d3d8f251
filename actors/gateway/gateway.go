// Package gateway is how the surfaces reach the actors: the one client of
// the actor system that ui (HTTP, MCP over HTTP, later the dashboard and
// Telegram) is handed. It sends agent calls and owner controls as messages
// and waits for the answer within the caller's context, and it opens event
// subscriptions. Surfaces see only the contract (messages) and events, never
// a PID or an actor.
//
// The hot path: an agent call for a conversation whose session runs goes
// straight to that session when the routing table the controller pushes
// says the controller would let it through unchanged (known token with the
// grant, not stopped, the session is that agent's, no site answer needed).
// Everything else, and a call whose session has just gone (a dead letter,
// so it was never received), goes to the controller, which decides.
//
// Concurrency: a Gateway is safe for concurrent use; each call blocks only
// its caller, on its own slot of the gateway's one replies process (no
// future per call), bounded by its context's deadline. The replies process
// is registered at New and lives as long as the actor system.
package gateway

import (
	"context"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/routes"
	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// Gateway is the actors' client.
type Gateway struct {
	controller *actor.PID
	routes     *routes.Table
	bus        *events.Bus
	extension  *actor.PID // the extension connection; nil: none runs
	stop       *actor.PID // the owner's Stop and its one owner
	replies    *replies
}

// New returns the client of the actors: calls go to controller or, routed
// by table, to sessions; the owner's Stop and resume of all access go to
// stop, their one owner; subscriptions go to bus.
func New(sys *actor.ActorSystem, controller, stop *actor.PID, table *routes.Table, bus *events.Bus) *Gateway {
	return &Gateway{controller: controller, stop: stop, routes: table, bus: bus, replies: newReplies(sys)}
}

// WithExtension sends the extension's owner messages (messages.ForExtension)
// to the extension connection at pid.
func (g *Gateway) WithExtension(pid *actor.PID) *Gateway {
	g.extension = pid
	return g
}

// fallback bounds a call whose context has no deadline.
const fallback = 2 * time.Minute

// Tool answers one agent call, or says why no answer came.
func (g *Gateway) Tool(ctx context.Context, c *messages.ToolCall) (*messages.ToolResult, *messages.Error) {
	if pid, agent, ok := g.routes.Direct(c); ok {
		res, err := g.ask(ctx, pid, &messages.AgentCall{Call: c, Agent: agent, SitesApproved: true})
		if !errors.Is(err, actor.ErrDeadLetter) {
			return toolResult(res, err)
		}
	}
	return toolResult(g.ask(ctx, g.controller, c))
}

// Owner answers one owner control (a message of messages/owner.go).
func (g *Gateway) Owner(ctx context.Context, msg any) *messages.OwnerReply {
	to := g.controller
	switch msg.(type) {
	case messages.ForExtension:
		if g.extension == nil {
			return messages.OwnerFail(messages.Errorf(messages.CodeNotAvailable, "This buddi runs without the browser extension's connection."))
		}
		to = g.extension
	case *messages.StopAll, *messages.ResumeAll:
		to = g.stop
	}
	res, err := g.ask(ctx, to, msg)
	if err != nil {
		return messages.OwnerFail(failure(err))
	}
	r, ok := res.(*messages.OwnerReply)
	if !ok {
		return messages.OwnerFail(unexpected())
	}
	return r
}

// Identify names the agent whose token hashes to tokenHash, or refuses it
// (unauthorized).
func (g *Gateway) Identify(ctx context.Context, tokenHash string) (string, *messages.Error) {
	res, err := g.ask(ctx, g.controller, &messages.Identify{TokenHash: tokenHash})
	if err != nil {
		return "", failure(err)
	}
	id, ok := res.(*messages.Identity)
	switch {
	case !ok:
		return "", unexpected()
	case id.Error != nil:
		return "", id.Error
	}
	return id.Agent, nil
}

// Health is what /healthz shows, as the controller knows it.
func (g *Gateway) Health(ctx context.Context) (*messages.Health, *messages.Error) {
	res, err := g.ask(ctx, g.controller, &messages.GetHealth{})
	if err != nil {
		return nil, failure(err)
	}
	h, ok := res.(*messages.Health)
	if !ok {
		return nil, unexpected()
	}
	return h, nil
}

// Subscribe opens a subscription to the actors' events.
func (g *Gateway) Subscribe(f events.Filter) *events.Subscription { return g.bus.Subscribe(f) }

func (g *Gateway) ask(ctx context.Context, pid *actor.PID, msg any) (any, error) {
	d := fallback
	if dl, ok := ctx.Deadline(); ok {
		d = time.Until(dl)
	}
	if d <= 0 {
		return nil, actor.ErrTimeout
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return g.replies.ask(pid, msg, d)
}

func toolResult(res any, err error) (*messages.ToolResult, *messages.Error) {
	if err != nil {
		return nil, failure(err)
	}
	r, ok := res.(*messages.ToolResult)
	if !ok {
		return nil, unexpected()
	}
	return r, nil
}

func failure(err error) *messages.Error {
	switch {
	case errors.Is(err, actor.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return &messages.Error{Code: messages.CodeTimeout, Message: "buddi did not answer in time; check `buddi sessions` and try again."}
	case errors.Is(err, context.Canceled):
		return &messages.Error{Code: messages.CodeCancelled, Message: "The request was cancelled before buddi answered."}
	}
	return &messages.Error{Code: messages.CodeInternal, Message: "buddi could not handle the request: " + err.Error()}
}

func unexpected() *messages.Error {
	return &messages.Error{Code: messages.CodeInternal, Message: "buddi gave an unexpected answer."}
}

package audit

import (
	"context"
	"time"

	"github.com/buddi-dev/buddi/events"
	"github.com/buddi-dev/buddi/messages"
)

// Client is the actors' client the surfaces call (ui.Actors).
type Client interface {
	Tool(ctx context.Context, c *messages.ToolCall) (*messages.ToolResult, *messages.Error)
	Owner(ctx context.Context, msg any) *messages.OwnerReply
	Identify(ctx context.Context, tokenHash string) (string, *messages.Error)
	Health(ctx context.Context) (*messages.Health, *messages.Error)
	Subscribe(f events.Filter) *events.Subscription
}

// Actors is a Client that adds a line to the trail for every agent call
// and every owner control it passes on, once the answer is known and
// before the caller has it.
type Actors struct {
	Client
	log   *Log
	names Names
	now   func() time.Time
}

// Names tells whose a token or a conversation is (the routing table).
type Names interface {
	AgentName(tokenHash string) string // "" when no agent holds the token
	AgentOf(conv string) string        // "" when no session of conv runs here
}

var _ Client = (*Actors)(nil)

// Wrap records what c is asked on log; names tells whose calls and
// controls they are.
func Wrap(c Client, log *Log, names Names) *Actors {
	return &Actors{Client: c, log: log, names: names, now: time.Now}
}

// Tool passes the call on and records it.
func (a *Actors) Tool(ctx context.Context, c *messages.ToolCall) (*messages.ToolResult, *messages.Error) {
	tr, e := a.Client.Tool(ctx, c)
	r := Act(a.names.AgentName(c.TokenHash), c, tr, e)
	r.At = a.now().UTC()
	a.log.Add(&r)
	return tr, e
}

// Owner passes the control on and records it, unless it only reads. The
// conversation's agent is looked up first: a release ends the session
// that names it.
func (a *Actors) Owner(ctx context.Context, msg any) *messages.OwnerReply {
	r := Control(msg)
	if r != nil && r.Agent == "" && r.Conversation != "" {
		r.Agent = a.names.AgentOf(r.Conversation)
	}
	reply := a.Client.Owner(ctx, msg)
	if r != nil {
		Answered(r, reply)
		r.At = a.now().UTC()
		a.log.Add(r)
	}
	return reply
}

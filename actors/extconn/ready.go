package extconn

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// cmdState is a Ready conn's commands: those in flight, those abandoned
// and not yet confirmed, and those waiting behind an abandon.
type cmdState struct {
	live      bool
	next      int64
	inflight  map[int64]*pending
	abandoned map[int64]bool // given up; a late reply is dropped quietly
	awaiting  map[int64]bool // abandons not yet confirmed
	abandonAt time.Time
	queue     []*queued
}

type pending struct {
	to     *actor.PID
	sentAt time.Time
}

type queued struct {
	to  *actor.PID
	cmd *Send
}

func (s *cmdState) init() {
	s.inflight, s.abandoned, s.awaiting = map[int64]*pending{}, map[int64]bool{}, map[int64]bool{}
}

func (s *cmdState) blocked() bool { return len(s.awaiting) > 0 }

// failAll answers every command held with e.
func (c *conn) failAll(e *messages.Error) {
	s := &c.cmds
	for id, p := range s.inflight {
		c.answer(p.to, &Reply{Err: e})
		delete(s.inflight, id)
	}
	for _, q := range s.queue {
		c.answer(q.to, &Reply{Err: e})
	}
	s.queue = nil
}

// answer replies to a command's sender (a future, or an actor).
func (c *conn) answer(to *actor.PID, r *Reply) {
	if to != nil && c.sys != nil {
		c.sys.Root.Send(to, r)
	}
}

// readyState is a proven connection: commands, replies, pings, abandons.
func (c *conn) readyState(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *tick:
		c.deadlines()
		if c.ping(ctx) {
			c.arm(ctx)
		}
	case *Send:
		if c.cmds.blocked() {
			if len(c.cmds.queue) >= c.cfg.Limits.Queue {
				ctx.Respond(&Reply{Err: messages.Errorf(messages.CodeBusy, "The browser is still abandoning a command and too many wait; try again shortly.")})
				return
			}
			c.cmds.queue = append(c.cmds.queue, &queued{to: ctx.Sender(), cmd: m})
			return
		}
		c.dispatch(ctx.Sender(), m)
	case *inMsg:
		c.readyIn(ctx, m.in)
	}
}

func (c *conn) readyIn(ctx actor.Context, in extwire.In) {
	switch m := in.(type) {
	case *extwire.Pong:
		c.pong(m)
	case *extwire.Reply:
		c.reply(m)
	case *extwire.Abandoned:
		if c.cmds.awaiting[m.ID] {
			delete(c.cmds.awaiting, m.ID)
			c.unblock()
		}
	case *extwire.Forget:
		ctx.Send(ctx.Parent(), &forgetFrom{})
	case *extwire.Event:
		ctx.Send(ctx.Parent(), &eventFrom{conn: ctx.Self(), ev: m})
	default:
		c.outOfOrder(ctx, in, "a reply or a pong")
	}
}

func (c *conn) dispatch(to *actor.PID, m *Send) {
	c.cmds.next++
	id := c.cmds.next
	c.cmds.inflight[id] = &pending{to: to, sentAt: c.cfg.Now()}
	c.send(&extwire.Out{Type: extwire.CommandType, ID: id, Method: m.Method, Params: m.Params})
}

// reply answers a command; a reply for an id buddi does not wait on is
// refused with a notice (one it abandoned is dropped quietly).
func (c *conn) reply(m *extwire.Reply) {
	p, ok := c.cmds.inflight[m.ID]
	if !ok {
		if !c.cmds.abandoned[m.ID] {
			c.send(&extwire.Out{Type: extwire.NoticeType, ID: m.ID, Error: messages.Errorf(messages.CodeBadMessage,
				"buddi has no command %d waiting for a reply; the reply was dropped.", m.ID)})
		}
		return
	}
	delete(c.cmds.inflight, m.ID)
	c.answer(p.to, &Reply{Result: m.Result, Err: m.Error})
}

// deadlines fail commands past the wait and tell the extension to abandon
// them; an abandon unconfirmed past its wait is let go.
func (c *conn) deadlines() {
	now := c.cfg.Now()
	for id, p := range c.cmds.inflight {
		if now.Sub(p.sentAt) < c.cfg.Limits.CommandWait {
			continue
		}
		delete(c.cmds.inflight, id)
		c.answer(p.to, &Reply{Err: messages.Errorf(messages.CodeTimeout,
			"The browser did not answer within a minute, so buddi gave up on the command and told the browser to abandon it.")})
		c.send(&extwire.Out{Type: extwire.AbandonType, ID: id})
		c.cmds.abandoned[id] = true
		c.cmds.awaiting[id] = true
		c.cmds.abandonAt = now
	}
	if c.cmds.blocked() && now.Sub(c.cmds.abandonAt) >= c.cfg.Limits.AbandonWait {
		clear(c.cmds.awaiting)
		c.unblock()
	}
}

// unblock sends the commands that waited behind an abandon, in order.
func (c *conn) unblock() {
	if c.cmds.blocked() {
		return
	}
	q := c.cmds.queue
	c.cmds.queue = nil
	for _, w := range q {
		c.dispatch(w.to, w.cmd)
	}
}

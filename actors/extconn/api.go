package extconn

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// Send asks the live extension to run one command; answered with *Reply.
// Params is JSON (nil for none). The reply comes within CommandWait and
// the abandon wait, whatever the extension does.
type Send struct {
	Method string
	Params json.RawMessage
}

// Reply answers Send: the extension's result, or why there is none.
type Reply struct {
	Result json.RawMessage
	Err    *messages.Error
}

// Listen registers Fn to hear the live extension's events (and Dropped,
// with no tab, when its connection goes); answered with *Listening. Fn is
// called on the actor's goroutine and must not block.
type Listen struct{ Fn func(*extwire.Event) }

// Listening names a listener, for Unlisten.
type Listening struct{ ID int64 }

// Unlisten removes a listener.
type Unlisten struct{ ID int64 }

// Dropped is the event every listener hears when the live connection
// goes: what it was told to watch is gone with it.
const Dropped = "dropped"

// Subscribe registers fn with the actor at pid and returns what removes it.
func Subscribe(root *actor.RootContext, pid *actor.PID, fn func(*extwire.Event)) (func(), error) {
	res, err := root.RequestFuture(pid, &Listen{Fn: fn}, 5*time.Second).Result()
	if err != nil {
		return nil, err
	}
	l, ok := res.(*Listening)
	if !ok {
		return nil, errors.New("extconn: unexpected answer to Listen")
	}
	return func() { root.Send(pid, &Unlisten{ID: l.ID}) }, nil
}

// Call sends one command to the extension through the actor at pid and
// waits for the reply, at most until ctx ends.
func Call(ctx context.Context, root *actor.RootContext, pid *actor.PID, method string, params any) (json.RawMessage, *messages.Error) {
	var raw json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return nil, messages.Errorf(messages.CodeBadInput, "The command's parameters are not JSON: %v.", err)
		}
		raw = b
	}
	wait := 2 * extwire.CommandWait
	if dl, ok := ctx.Deadline(); ok {
		wait = time.Until(dl)
	}
	res, err := root.RequestFuture(pid, &Send{Method: method, Params: raw}, wait).Result()
	if errors.Is(err, actor.ErrTimeout) {
		return nil, messages.Errorf(messages.CodeTimeout, "The browser did not answer in time.")
	}
	if err != nil {
		return nil, messages.Errorf(messages.CodeInternal, "buddi could not reach the extension connection: %v.", err)
	}
	r, ok := res.(*Reply)
	if !ok {
		return nil, messages.Errorf(messages.CodeInternal, "buddi gave an unexpected answer.")
	}
	return r.Result, r.Err
}

func offline() *messages.Error {
	return messages.Errorf(messages.CodeBrowserOffline, "Your browser is not connected to buddi; open Chrome with the buddi extension, or pair it in Settings.")
}

// Client is the connection as the extension driver calls it
// (drivers/extension's Caller, Connection and Listener): commands and
// listeners go to the actor at PID, and Online reads the flag the actor
// keeps (Config.Online) without asking it.
type Client struct {
	Root *actor.RootContext
	PID  *actor.PID
	Flag *atomic.Bool
}

// Call sends one command and waits for its reply within ctx.
func (c Client) Call(ctx context.Context, method string, params any) (json.RawMessage, *messages.Error) {
	return Call(ctx, c.Root, c.PID, method, params)
}

// Online reports whether an extension is connected and proven now.
func (c Client) Online() bool { return c.Flag != nil && c.Flag.Load() }

// Listen hears the live extension's events until the returned stop.
func (c Client) Listen(fn func(*extwire.Event)) (func(), error) {
	return Subscribe(c.Root, c.PID, fn)
}

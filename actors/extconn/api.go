package extconn

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/messages"
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
	wait := 2 * messages.ExtCommandWait
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

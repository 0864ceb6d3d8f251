package member

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/buddi-dev/buddi/actors/gateway"
	"github.com/buddi-dev/buddi/cluster/grains"
	"github.com/buddi-dev/buddi/messages"
)

// Actors is what the surfaces call in a cluster: agent calls and controls
// of one conversation go to its grain, wherever it is; the rest is this
// member's.
type Actors struct {
	*gateway.Gateway
	mem *Self
}

// Actors is what the surfaces call in a cluster (the daemon hands it to
// them as their ui.Actors): agent calls and controls of one conversation
// go through the grains.
func (mem *Self) Actors() *Actors {
	return &Actors{Gateway: mem.parts.Gateway, mem: mem}
}

// Tool runs an agent call on the member that holds its conversation.
func (a *Actors) Tool(ctx context.Context, c *messages.ToolCall) (*messages.ToolResult, *messages.Error) {
	dl, _ := ctx.Deadline()
	res, err := a.mem.grains.Request(ctx, c.Conversation, &grainTool{Call: c, Deadline: dl})
	ans, e := fromGrain(res, err)
	if e != nil {
		return messages.FailWith(e), nil
	}
	return &messages.ToolResult{Result: ans.forwarded(), Error: ans.Error}, nil
}

// Owner sends the controls of one conversation to its member: its task,
// release, take-over and hand-back, site answers and screenshots, and the
// opening of its hand for a tab here (hand.go). The lists are
// every member's.
func (a *Actors) Owner(ctx context.Context, msg any) *messages.OwnerReply {
	switch m := msg.(type) {
	case *messages.ListSessions, *messages.ListTasks, *messages.ListSiteRequests:
		return a.everyMember(ctx, msg)
	case *messages.HandOpen:
		if !a.mem.parts.Routes.Holds(m.Conversation) {
			return a.openHandThere(ctx, m)
		}
		return a.Gateway.Owner(ctx, msg)
	}
	g, conv := grainControl(msg)
	if g == nil || messages.CheckConversation(conv) != nil {
		return a.Gateway.Owner(ctx, msg) // not a conversation's, or refused here
	}
	g.Deadline, _ = ctx.Deadline()
	res, err := a.mem.grains.Request(ctx, conv, g)
	ans, e := fromGrain(res, err)
	if e != nil {
		return messages.OwnerFail(e)
	}
	return &messages.OwnerReply{Result: ans.forwarded(), Error: ans.Error}
}

func (a *grainAnswer) forwarded() messages.Answer {
	switch {
	case a.Error != nil:
		return nil
	case a.local != nil:
		v, _ := a.local.(messages.Answer)
		return v
	case len(a.Result) == 0:
		return nil
	}
	return messages.Forwarded(a.Result)
}

// fromGrain reads a grain's answer, or says why none came.
func fromGrain(res any, err error) (*grainAnswer, *messages.Error) {
	var full *grains.NoRoomError
	switch {
	case errors.As(err, &full):
		return nil, &messages.Error{Code: messages.CodeTooManySessions, Message: full.Error()}
	case errors.Is(err, grains.ErrNoAnswer):
		return nil, &messages.Error{Code: messages.CodeRestarted, Message: "The member of the cluster holding this conversation did not answer in time, so it is not known whether the call finished; nothing is replayed. Observe again before acting."}
	case errors.Is(err, grains.ErrUnavailable):
		return nil, messages.Errorf(messages.CodeClusterDown, "No member of the cluster could take this conversation in time (%v); try again shortly.", err)
	case errors.Is(err, grains.ErrClosed):
		return nil, &messages.Error{Code: messages.CodeClusterDown, Message: "This member is leaving the cluster; call another member."}
	case err != nil:
		return nil, messages.Errorf(messages.CodeInternal, "The conversation's member could not be reached: %v", err)
	}
	ans, ok := res.(*grainAnswer)
	if !ok {
		return nil, messages.Errorf(messages.CodeInternal, "The conversation's member answered %T.", res)
	}
	return ans, nil
}

// everyMember lists the sessions, tasks or site requests of every member:
// each conversation lives on one. A member that does not answer in time
// is left out (the others' lists still come); when none answers, this
// member's own list is given.
func (a *Actors) everyMember(ctx context.Context, msg any) *messages.OwnerReply {
	answers, err := a.mem.grains.Each(ctx, &memberLists{})
	if err != nil && len(answers) == 0 {
		return a.Gateway.Owner(ctx, msg)
	}
	var all memberHolds
	for _, v := range answers {
		if h, ok := v.(*memberHolds); ok {
			all.Sessions = append(all.Sessions, h.Sessions...)
			all.Tasks = append(all.Tasks, h.Tasks...)
			all.Approvals = append(all.Approvals, h.Approvals...)
		}
	}
	switch msg.(type) {
	case *messages.ListSessions:
		slices.SortFunc(all.Sessions, func(x, y messages.SessionInfo) int { return strings.Compare(x.Conversation, y.Conversation) })
		return &messages.OwnerReply{Result: orEmpty(all.Sessions)}
	case *messages.ListTasks:
		slices.SortFunc(all.Tasks, func(x, y messages.TaskView) int { return strings.Compare(x.Conversation, y.Conversation) })
		return &messages.OwnerReply{Result: orEmpty(all.Tasks)}
	}
	return &messages.OwnerReply{Result: orEmpty(all.Approvals)}
}

// orEmpty is list, or an empty (not nil) one: the API answers [] for none.
func orEmpty[L ~[]E, E any](list L) L {
	if list == nil {
		return L{}
	}
	return list
}

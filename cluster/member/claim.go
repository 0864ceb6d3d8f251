package member

import (
	"context"
	"encoding/json"
	"time"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/messages"
)

// A conversation's claim: on its grain's first call this member claims
// the conversation in etcd and, when another member held it before,
// adopts its task with the steps it has used. What reaches etcd or the
// controller runs off the grain's mailbox (the work Prepare hands the
// grain); what it learned is kept in Prepared, in the grain's Receive.

// claimed is what a claim, or an adoption tried again, learned.
type claimed struct {
	home  bool            // etcd names this member as the conversation's
	err   *messages.Error // the claim, or the read of a moved task, failed
	moved *ledger.Task    // the task to adopt from a lost member
	used  int             // the steps it had used, as etcd holds them
	adopt *messages.Error // the controller's answer to the adoption
}

// Prepare claims the conversation on its first call (refused at once
// while this member knows etcd is away, rather than after a claim that
// cannot land), and adopts a moved task until the controller takes it.
func (g *conversation) Prepare() (any, func(context.Context) any) {
	if g.claimed && g.moved == nil {
		return nil, nil // every call after the first
	}
	if g.claimed {
		t, used := *g.moved, g.used
		return nil, func(c context.Context) any {
			return &claimed{home: true, moved: &t, used: used, adopt: g.adopt(c, t, used)}
		}
	}
	if e := g.mem.etcdDown(); e != nil {
		return &grainAnswer{Error: e}, nil
	}
	g.mem.claims.Add(1)
	return nil, g.claim
}

// Prepared keeps what the claim learned: a moved task adopted makes the
// agent's next act answer restarted; one the controller did not take yet
// is tried again on the next call.
func (g *conversation) Prepared(result any) any {
	r, ok := result.(*claimed)
	if !ok {
		return &grainAnswer{Error: messages.CodeClusterDown.Err("the conversation could not be claimed in etcd in time")}
	}
	g.claimed = g.claimed || r.home
	switch {
	case r.err != nil:
		return &grainAnswer{Error: r.err}
	case r.moved == nil:
		return nil
	case r.adopt == nil:
		g.steps.Lock()
		g.steps.TaskSteps = shared.TaskSteps{Task: r.moved.Created, Used: r.used}
		g.steps.Unlock()
		g.moved, g.restart = nil, true
	case r.adopt.Code == messages.CodeNoTask:
		g.moved, g.restart = nil, false
	default:
		g.moved, g.used = r.moved, r.used
		return &grainAnswer{Error: r.adopt}
	}
	return nil
}

// claim claims the conversation for this member in etcd, off the
// mailbox. A conversation held before (by another member that was lost,
// or by this one before it restarted) whose session does not run here
// starts again from its task in etcd.
func (g *conversation) claim(c context.Context) any {
	old, found, err := g.mem.shared.Swap(c, shared.Homes, g.conv, []byte(g.mem.memberID))
	if err != nil {
		return &claimed{err: messages.CodeClusterDown.Err(err.Error())}
	}
	r := &claimed{home: true}
	if !found || g.mem.parts.Routes.Holds(g.conv) {
		g.mem.log.Debug("this member holds the conversation now", "conversation", g.conv)
		return r
	}
	g.mem.log.Info("this member holds the conversation now, after another", "conversation", g.conv, "before", string(old.Value))
	if r.moved, r.used, err = g.sharedTask(c); err != nil {
		return &claimed{home: true, err: messages.CodeClusterDown.Err(err.Error())}
	}
	if r.moved != nil {
		r.adopt = g.adopt(c, *r.moved, r.used)
	}
	return r
}

// adopt asks the controller to start a moved task here, off the mailbox.
func (g *conversation) adopt(c context.Context, t ledger.Task, used int) *messages.Error {
	return g.mem.parts.Gateway.Owner(c, &controller.Adopt{Task: t, StepsUsed: used}).Error
}

// sharedTask is the conversation's task in etcd when it still runs, and
// the steps it has used.
func (g *conversation) sharedTask(c context.Context) (*ledger.Task, int, error) {
	rec, ok, err := g.mem.shared.Get(c, shared.Tasks, g.conv)
	if err != nil || !ok {
		return nil, 0, err
	}
	var t ledger.Task
	if err := json.Unmarshal(rec.Value, &t); err != nil {
		g.mem.log.Warn("the cluster's record of a task does not decode; the conversation starts without it", "conversation", g.conv, "err", err)
		return nil, 0, nil
	}
	if t.State != ledger.TaskActive || !time.Now().Before(t.Expires) {
		return nil, 0, nil
	}
	used, err := g.mem.shared.StepsOf(c, g.conv, t.Created)
	if err != nil {
		return nil, 0, err
	}
	return &t, used, nil
}

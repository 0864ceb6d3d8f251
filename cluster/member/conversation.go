package member

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"reflect"
	"sync"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/controller"
	"github.com/buddi-dev/buddi/actors/grain"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/cluster/grains"
	"github.com/buddi-dev/buddi/cluster/shared"
	"github.com/buddi-dev/buddi/messages"
)

// In a cluster every conversation is a grain (cluster/grains): one member
// holds it, every member reaches it. The grain is the conversation's door
// on the member that holds it: it runs the calls it is sent through that
// member's own actors (the controller, the session actor and its browser),
// so a session and its browser never leave their member, and it is where
// the conversation moves when its member is lost.

// grainTool is an agent call sent to the conversation's member.
type grainTool struct {
	Call     *messages.ToolCall `json:"call"`
	Deadline time.Time          `json:"deadline"`
}

// grainOwner is an owner's control of one conversation sent to its member:
// exactly one field is set.
type grainOwner struct {
	Start       *messages.StartTask   `json:"start,omitempty"`
	Decide      *messages.DecideTask  `json:"decide,omitempty"`
	Release     *messages.Release     `json:"release,omitempty"`
	TakeOver    *messages.TakeOver    `json:"takeOver,omitempty"`
	Resume      *messages.Resume      `json:"resume,omitempty"`
	Site        *messages.DecideSite  `json:"site,omitempty"`
	Screenshots *messages.Screenshots `json:"screenshots,omitempty"`
	Hand        *handOpen             `json:"hand,omitempty"`
	Deadline    time.Time             `json:"deadline"`
}

func (g *grainOwner) msg() any {
	for _, m := range []any{g.Start, g.Decide, g.Release, g.TakeOver, g.Resume, g.Site, g.Screenshots, g.Hand} {
		if !reflect.ValueOf(m).IsNil() {
			return m
		}
	}
	return nil
}

// grainControl wraps an owner's control of one conversation for its grain,
// and names the conversation; nil for a control that is this member's.
func grainControl(msg any) (*grainOwner, string) {
	switch m := msg.(type) {
	case *messages.StartTask:
		return &grainOwner{Start: m}, m.Conversation
	case *messages.DecideTask:
		return &grainOwner{Decide: m}, m.Conversation
	case *messages.Release:
		return &grainOwner{Release: m}, m.Conversation
	case *messages.TakeOver:
		return &grainOwner{TakeOver: m}, m.Conversation
	case *messages.Resume:
		return &grainOwner{Resume: m}, m.Conversation
	case *messages.DecideSite:
		return &grainOwner{Site: m}, m.Conversation
	case *messages.Screenshots:
		return &grainOwner{Screenshots: m}, m.Conversation
	}
	return nil, ""
}

// grainAnswer is what the conversation's member answered. On that member
// it keeps the gateway's answer as it is (local); it is encoded as JSON
// only to cross to another member, which forwards it as it came.
type grainAnswer struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *messages.Error `json:"error,omitempty"`

	local any // a messages.Answer, or an answer of the cluster's own (handOpened)
}

// MarshalJSON encodes the answer to cross members.
func (a *grainAnswer) MarshalJSON() ([]byte, error) {
	type wire grainAnswer
	w := wire(*a)
	if len(w.Result) == 0 && a.local != nil {
		raw, err := json.Marshal(a.local)
		if err != nil {
			return nil, fmt.Errorf("member: encode a conversation's answer: %w", err)
		}
		w.Result = raw
	}
	return json.Marshal(w)
}

// memberLists asks every member for what it holds: its sessions, tasks
// and site requests waiting for the owner.
type memberLists struct{}

// memberHolds is one member's answer to memberLists.
type memberHolds struct {
	Sessions  messages.SessionList  `json:"sessions"`
	Tasks     messages.TaskList     `json:"tasks"`
	Approvals messages.SiteRequests `json:"approvals"`
}

// grainTypes are the messages that cross members.
func grainTypes() (*grains.Registry, error) {
	r := grains.NewRegistry()
	return r, errors.Join(
		grains.Register[grainTool](r, "buddi.tool"),
		grains.Register[grainOwner](r, "buddi.owner"),
		grains.Register[grainAnswer](r, "buddi.answer"),
		grains.Register[memberLists](r, "buddi.lists"),
		grains.Register[memberHolds](r, "buddi.holds"),
		grains.Register[memberEvent](r, "buddi.event"),
		grains.Register[memberWatching](r, "buddi.watching"),
		grains.Register[handOpened](r, "buddi.hand.opened"),
		grains.Register[handToScreen](r, "buddi.hand.screen"),
		grains.Register[handCheck](r, "buddi.hand.check"),
		grains.Register[handChecked](r, "buddi.hand.checked"),
		grains.Register[handToLink](r, "buddi.hand.link"),
	)
}

// local answers what another member asks of every member, on this one.
func (mem *Self) local(msg any) any {
	switch m := msg.(type) {
	case *memberLists:
		return mem.holds()
	case *memberEvent:
		mem.relay.hear(m)
	case *memberWatching:
		mem.Bus.WatchElsewhere(watchedKinds, time.Now().Add(min(m.For, watchFor)))
	default:
		return mem.handHeard(msg)
	}
	return nil
}

// holds is what this member holds: its sessions, tasks and site requests.
func (mem *Self) holds() *memberHolds {
	c, cancel := context.WithTimeout(context.Background(), healthWait)
	defer cancel()
	h := &memberHolds{}
	h.Sessions, _ = mem.Gateway.Owner(c, &messages.ListSessions{}).Result.(messages.SessionList)
	h.Tasks, _ = mem.Gateway.Owner(c, &messages.ListTasks{}).Result.(messages.TaskList)
	h.Approvals, _ = mem.Gateway.Owner(c, &messages.ListSiteRequests{}).Result.(messages.SiteRequests)
	return h
}

// startGrains joins this member to the cluster's grains; every agent call
// and conversation control then goes through them (Actors).
func (mem *Self) startGrains() error {
	types, err := grainTypes()
	if err != nil {
		return err
	}
	if err := types.Seal(mem.secret.TransportKey(), mem.log); err != nil {
		return err
	}
	adv := mem.cfg.ClusterAdvertise
	if adv == "" {
		adv = mem.addr
	}
	host, _, err := net.SplitHostPort(adv)
	if err != nil {
		return fmt.Errorf("--cluster: the advertised address %s has no host: %w", adv, err)
	}
	log := mem.log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	// A member holds at most as many conversations as its browser profiles
	// hold sessions; a full member passes new ones to a member with room.
	slots := mem.capacity(context.Background()).Sessions
	mem.grains, err = grains.Start(grains.Config{
		Host: host, Port: mem.cfg.ClusterPort, Endpoints: mem.cfg.ClusterEtcd, Types: types, Logger: log,
		Membership: mem.cfg.ClusterMembership,
		EtcdTLS:    mem.etcdTLS(), MemberTLS: mem.memberTLS(),
		Capacity: slots, Local: mem.local,
		Produce: func(conv string) actor.Actor {
			return grain.New(&conversation{mem: mem, conv: conv}, mem.log.With("conversation", conv))
		},
	})
	if err != nil {
		return fmt.Errorf("--cluster: join the cluster's grains: %w", err)
	}
	return nil
}

// conversation is one conversation's grain on the member that holds it
// (actors/grain runs it). On its first call it claims the conversation
// for this member in etcd; when the conversation was held before and its
// session does not run here (its member was lost, or this member
// restarted: a member in a cluster resumes no session when it starts), the
// task and the steps it has used come from etcd and the agent's next act
// answers restarted: the page and the refs start afresh, the step count
// goes on, and nothing is replayed. A member that knows etcd is away
// claims nothing: new work is refused at once.
type conversation struct {
	mem     *Self
	conv    string
	claimed bool
	moved   *ledger.Task // a task to adopt from a lost member, until it is
	used    int          // the steps it had used, as etcd holds them
	restart bool         // the next act answers restarted

	// steps is the count etcd holds, as this member last wrote or read
	// it; Run's goroutines write it, one at a time.
	steps struct {
		sync.Mutex
		shared.TaskSteps
	}
}

var _ grain.Conversation = (*conversation)(nil)

// Arrive claims the conversation on its first call, turns away a control
// that names nothing, and answers an agent's first act after a move.
func (g *conversation) Arrive(msg any) any {
	if e := g.arrive(); e != nil {
		return &grainAnswer{Error: e}
	}
	switch m := msg.(type) {
	case *grainTool:
		if g.restart && m.Call.Tool == messages.ToolAct {
			g.restart = false
			return &grainAnswer{Error: movedError(g.conv)}
		}
	case *grainOwner:
		if m.msg() == nil {
			return &grainAnswer{Error: &messages.Error{Code: messages.CodeBadInput, Message: "The control names nothing to do."}}
		}
	default:
		return &grainAnswer{Error: messages.Errorf(messages.CodeInternal, "A conversation's grain was sent %T.", msg)}
	}
	return nil
}

// Deadline is the caller's, as the call carries it.
func (g *conversation) Deadline(msg any) time.Time {
	switch m := msg.(type) {
	case *grainTool:
		return m.Deadline
	case *grainOwner:
		return m.Deadline
	}
	return time.Time{}
}

// Run runs the call through this member's own actors.
func (g *conversation) Run(c context.Context, msg any) any {
	switch m := msg.(type) {
	case *grainTool:
		ans := answerOf(g.mem.Gateway.Tool(c, m.Call))
		if e := g.keepSteps(c); e != nil {
			return &grainAnswer{Error: e}
		}
		return ans
	case *grainOwner:
		if m.Hand != nil {
			return g.mem.openHandHere(c, m.Hand)
		}
		r := g.mem.Gateway.Owner(c, m.msg())
		return answerOf(&messages.ToolResult{Result: r.Result, Error: r.Error}, nil)
	}
	return nil
}

// Late is the answer to a call that did not finish before its deadline.
func (g *conversation) Late() any {
	return &grainAnswer{Error: messages.Errorf(messages.CodeTimeout, "Conversation %s did not answer before the call's deadline.", g.conv)}
}

// Keeps reports whether the conversation has anything on this member: a
// session, or a task pending or running (a pending task's answer must
// find it here).
func (g *conversation) Keeps() bool {
	if g.moved != nil || g.mem.Routes.Holds(g.conv) {
		return true
	}
	t, ok, err := g.mem.Store.Task(g.conv)
	return err != nil || (ok && (t.State == ledger.TaskPending || t.State == ledger.TaskActive))
}

// answerOf is a local answer as it crosses members.
func answerOf(tr *messages.ToolResult, e *messages.Error) *grainAnswer {
	if e != nil {
		return &grainAnswer{Error: e}
	}
	if tr.Error != nil || tr.Result == nil {
		return &grainAnswer{Error: tr.Error}
	}
	return &grainAnswer{local: tr.Result}
}

// movedError is the first act's answer after a conversation moved.
func movedError(conv string) *messages.Error {
	return messages.Errorf(messages.CodeRestarted, "The member of the cluster that held conversation %s was lost or restarted, so its session started again on another member or afresh, with the same task and the steps it had left; nothing was replayed and what you observed is gone: observe again.", conv)
}

// keepSteps writes the steps the conversation's task has used to etcd
// before a call's answer goes back, when the call used any: every step an
// agent is answered is counted where the conversation moves next, so a
// move never hands out a budget again. A member killed before it wrote
// loses the agent only the step whose answer it never gave. When etcd does
// not take the count, the answer is withheld: the step ran and counts
// here, but the agent does not get what etcd might not know of.
func (g *conversation) keepSteps(c context.Context) *messages.Error {
	s := g.mem.Routes.Session(g.conv)
	if s == nil {
		return nil // no session here (it ended, or never started): nothing to count
	}
	used := s.Shown().StepsUsed
	t, ok, err := g.mem.Store.Task(g.conv)
	if err != nil || !ok {
		return nil // the task is gone with its session
	}
	g.steps.Lock()
	defer g.steps.Unlock()
	if g.steps.Task.Equal(t.Created) && used <= g.steps.Used {
		return nil // etcd holds this count already, or a larger one
	}
	err = g.mem.shared.PutSteps(c, g.conv, g.mem.memberID, shared.TaskSteps{Task: t.Created, Used: used})
	switch {
	case errors.Is(err, shared.ErrNotHome):
		return messages.Errorf(messages.CodeRestarted, "Conversation %s moved to another member of the cluster while this call ran, so its answer is not given; observe again.", g.conv)
	case err != nil:
		return messages.CodeClusterDown.Err("this step ran but its count could not be written there, so its answer is withheld: " + err.Error())
	}
	g.steps.TaskSteps = shared.TaskSteps{Task: t.Created, Used: used}
	return nil
}

// arrive claims the conversation for this member on the grain's first
// call, and adopts its task when another member held it.
func (g *conversation) arrive() *messages.Error {
	if g.claimed && g.moved == nil {
		return nil // every call after the first
	}
	if !g.claimed {
		// New work on this member: refused at once while it knows etcd
		// is away, rather than after a claim that cannot land.
		if e := g.mem.etcdDown(); e != nil {
			return e
		}
	}
	c, cancel := context.WithTimeout(context.Background(), clusterOpenWait)
	defer cancel()
	if !g.claimed {
		g.mem.claims.Add(1)
		_, found, err := g.mem.shared.Swap(c, shared.Homes, g.conv, []byte(g.mem.memberID))
		if err != nil {
			return messages.CodeClusterDown.Err(err.Error())
		}
		g.claimed = true
		// A conversation held before (by another member that was lost, or
		// by this one before it restarted) whose session does not run here
		// starts again from its task in etcd.
		if found && !g.mem.Routes.Holds(g.conv) {
			if g.moved, g.used, err = g.sharedTask(c); err != nil {
				return messages.CodeClusterDown.Err(err.Error())
			}
		}
	}
	if g.moved == nil {
		return nil
	}
	r := g.mem.Gateway.Owner(c, &controller.Adopt{Task: *g.moved, StepsUsed: g.used})
	if r.Error != nil && r.Error.Code != messages.CodeNoTask {
		return r.Error // tried again on the next call
	}
	if r.Error == nil {
		g.steps.Lock()
		g.steps.TaskSteps = shared.TaskSteps{Task: g.moved.Created, Used: g.used}
		g.steps.Unlock()
	}
	g.moved, g.restart = nil, r.Error == nil
	return nil
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

package member

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"reflect"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/grain"
	"github.com/buddi-dev/buddi/cluster/grains"
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
	Snapshot    *messages.SnapshotOf  `json:"snapshot,omitempty"`
	Hand        *handOpen             `json:"hand,omitempty"`
	Deadline    time.Time             `json:"deadline"`
}

func (g *grainOwner) msg() any {
	for _, m := range []any{g.Start, g.Decide, g.Release, g.TakeOver, g.Resume, g.Site, g.Screenshots, g.Snapshot, g.Hand} {
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
	case *messages.SnapshotOf:
		return &grainOwner{Snapshot: m}, m.Conversation
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

// local answers what another member asks of every member, on this one,
// in grains' local actor: what asks the actors is a grains.Later, which
// runs off its mailbox.
func (mem *Self) local(msg any) any {
	switch m := msg.(type) {
	case *memberLists:
		return grains.Later(mem.holds)
	case *memberEvent:
		mem.relay.hear(m)
	case *memberWatching:
		mem.parts.Bus.WatchElsewhere(watchedKinds, time.Now().Add(min(m.For, watchFor)))
	default:
		return mem.handHeard(msg)
	}
	return nil
}

// holds is what this member holds: its sessions, tasks and site requests.
func (mem *Self) holds(ctx context.Context) any {
	c, cancel := context.WithTimeout(ctx, healthWait)
	defer cancel()
	h := &memberHolds{}
	h.Sessions, _ = mem.parts.Gateway.Owner(c, &messages.ListSessions{}).Result.(messages.SessionList)
	h.Tasks, _ = mem.parts.Gateway.Owner(c, &messages.ListTasks{}).Result.(messages.TaskList)
	h.Approvals, _ = mem.parts.Gateway.Owner(c, &messages.ListSiteRequests{}).Result.(messages.SiteRequests)
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
		Capacity: slots, Local: mem.local, Made: actors.CompactRegistry,
		OnLapse: func() {
			mem.parts.Root.Send(mem.parts.Controller, &messages.ClusterLapsed{At: time.Now()})
		},
		OnRoutes: func(addrs []string) {
			mem.parts.Root.Send(mem.parts.Controller, &messages.ClusterRoutes{Addresses: addrs})
		},
		Produce: func(conv string) actor.Actor {
			return grain.New(&conversation{mem: mem, conv: conv}, mem.log.With("conversation", conv))
		},
	})
	if err != nil {
		return fmt.Errorf("--cluster: join the cluster's grains: %w", err)
	}
	return nil
}

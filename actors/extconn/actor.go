package extconn

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
)

// Actor is the extension connection: the pairing and the live conn.
type Actor struct {
	cfg   Config
	rec   *extension.Record // nil when no extension is paired
	live  *actor.PID
	conns map[string]*actor.PID // every conn, by its PID's id
	// pairings are the codes showing, by their conn's PID id: several may
	// show at once, and a new one never displaces another. wrong counts
	// the owner's wrong codes since one was last spent or right.
	pairings map[string]*pairing
	wrong    int
	timer    *time.Timer
	// listeners hear the live conn's events, and Dropped when it goes.
	listeners map[int64]func(*extwire.Event)
	nextID    int64
}

// pairing is a code one conn is showing.
type pairing struct {
	conn    *actor.PID
	id      string
	build   string
	code    string
	expires time.Time
}

// Props returns the connection actor's props. Conns that panic are
// stopped, not restarted: their socket is gone with them.
func Props(cfg Config) *actor.Props {
	cfg = cfg.withDefaults()
	return actor.PropsFromProducer(func() actor.Actor {
		return &Actor{cfg: cfg, conns: map[string]*actor.PID{}, pairings: map[string]*pairing{},
			listeners: map[int64]func(*extwire.Event){}}
	},
		actor.WithSupervisor(actor.NewOneForOneStrategy(0, 0, func(any) actor.Directive { return actor.StopDirective })))
}

// Receive handles the surface's and the owner's messages, the conns'
// requests, and the driver's commands.
func (a *Actor) Receive(ctx actor.Context) {
	defer func() { a.cfg.Online.Store(a.live != nil) }()
	switch m := ctx.Message().(type) {
	case *actor.Started:
		a.load()
		a.arm(ctx)
	case *actor.Stopping:
		if a.timer != nil {
			a.timer.Stop()
		}
	case *actor.Stopped, *actor.Restarting:
	case *actor.Terminated:
		a.terminated(m.Who)
	case *tick:
		a.expire()
		a.arm(ctx)
	case *Send:
		a.send(ctx, m)
	case *Listen:
		a.nextID++
		a.listeners[a.nextID] = m.Fn
		ctx.Respond(&Listening{ID: a.nextID})
	case *Unlisten:
		delete(a.listeners, m.ID)
	default:
		if !a.fromConn(ctx) && !a.fromOwner(ctx) {
			actors.Unhandled(ctx, a.cfg.Log)
		}
	}
}

// fromConn handles a conn's requests; false for a message it does not know.
func (a *Actor) fromConn(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *helloFrom:
		ctx.Respond(a.hello(ctx, m))
	case *tokenFrom:
		ctx.Respond(a.token(ctx, m))
	case *forgetFrom:
		a.forget(ctx)
	case *closing:
		a.closed(ctx, m.conn)
	case *eventFrom:
		if a.live != nil && a.live.Equal(m.conn) {
			a.tell(m.ev)
		}
	default:
		return false
	}
	return true
}

// fromOwner handles the surface's and the owner's messages; false for a
// message it does not know.
func (a *Actor) fromOwner(ctx actor.Context) bool {
	switch m := ctx.Message().(type) {
	case *messages.ExtensionOpen:
		a.open(ctx, m)
	case *messages.GetExtension:
		ctx.Respond(&messages.OwnerReply{Result: a.view()})
	case *messages.PairExtension:
		ctx.Respond(a.pair(ctx, m.Code))
	case *messages.ForgetExtension:
		a.forget(ctx)
		ctx.Respond(&messages.OwnerReply{Result: a.view()})
	default:
		return false
	}
	return true
}

func (a *Actor) arm(ctx actor.Context) {
	self, sys := ctx.Self(), ctx.ActorSystem()
	a.timer = time.AfterFunc(a.cfg.Limits.Tick, func() { sys.Root.Send(self, &tick{}) })
}

// load reads the record; a damaged one is as good as none (the owner
// pairs again) and is said in the log.
func (a *Actor) load() {
	rec, found, err := extension.Load(a.cfg.Dir)
	if err != nil {
		a.cfg.Log.Error("the extension's pairing could not be read; pair the browser again", "err", err)
	}
	if found {
		a.rec = &rec
	}
}

// open spawns the conn of one upgraded socket.
func (a *Actor) open(ctx actor.Context, m *messages.ExtensionOpen) {
	proving := len(a.conns) - len(a.pairings)
	if a.live != nil {
		proving--
	}
	if proving >= a.cfg.Limits.Pending {
		ctx.Respond(messages.OwnerFail(messages.Errorf(messages.CodeExtRefused,
			"Too many connections of the extension are proving themselves at once; try again in a few seconds.")))
		return
	}
	pid := ctx.Spawn(connProps(a.cfg, m.ExtensionID, m.Addr, m.Wire))
	a.conns[pid.Id] = pid
	ctx.Respond(&messages.OwnerReply{Result: &messages.ExtensionOpened{Link: &link{sys: ctx.ActorSystem(), conn: pid}}})
}

// closed forgets a conn that closed its socket and stops it behind the
// commands already forwarded to it.
func (a *Actor) closed(ctx actor.Context, who *actor.PID) {
	a.terminated(who)
	a.conns[who.Id] = who // still counted until it stopped
	ctx.Poison(who)
}

func (a *Actor) terminated(who *actor.PID) {
	delete(a.conns, who.Id)
	if a.live != nil && a.live.Equal(who) {
		a.live = nil
		a.tell(&extwire.Event{Type: extwire.EventType, Name: Dropped})
	}
	delete(a.pairings, who.Id)
}

// send passes a command to the live conn, keeping its sender.
func (a *Actor) send(ctx actor.Context, m *Send) {
	switch {
	case !extwire.ValidMethod(m.Method):
		ctx.Respond(&Reply{Err: messages.Errorf(messages.CodeBadInput, "%q is not a command of the extension.", m.Method)})
	case len(m.Params) > extwire.MaxMessage/2:
		ctx.Respond(&Reply{Err: messages.Errorf(messages.CodeBadInput, "The command's parameters are too large.")})
	case a.live == nil:
		ctx.Respond(&Reply{Err: offline()})
	default:
		ctx.Forward(a.live)
	}
}

func (a *Actor) view() *messages.ExtensionView {
	v := &messages.ExtensionView{Connected: a.live != nil, Accepted: extension.Accepted(), Folder: a.cfg.Folder}
	if r := a.rec; r != nil {
		v.Paired, v.ID, v.Build, v.PairedAt, v.LastSeen = true, r.ID, r.Build, r.PairedAt, r.LastSeen
	}
	var newest time.Time
	for _, p := range a.pairings {
		if a.cfg.Now().Before(p.expires) && p.expires.After(newest) {
			v.Pairing, newest = p.id, p.expires
		}
	}
	return v
}

// tell passes an event to every listener; a listener must not block.
func (a *Actor) tell(ev *extwire.Event) {
	for _, fn := range a.listeners {
		fn(ev)
	}
}

// closeConn tells one conn to close with why.
func (a *Actor) closeConn(ctx actor.Context, pid *actor.PID, why *messages.Error) {
	ctx.Send(pid, &refuse{err: why})
}

package session

import (
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// ownerWait is how long an owner's control waits for the ledger before it
// is answered with store_failed; the write goes on being retried.
const ownerWait = 5 * time.Second

// record is the ledger's record of this session, as its state says.
func (a *Actor) record() ledger.Session {
	r := a.rec
	r.Paused, r.PauseReason, r.TakenOver = false, "", false
	switch s := a.st.(type) {
	case *paused:
		r.Paused, r.PauseReason = true, s.reason
	case *takenOver, *handingBack:
		r.TakenOver = true
	}
	return r
}

func (a *Actor) write(owner bool) *ledger.Write {
	a.cfg.Carry.stepsUsed(a.rec.StepsUsed)
	return &ledger.Write{Owner: owner, Ops: []ledger.Op{
		ledger.Put(ledger.SessionKey(a.cfg.Conversation), a.record()),
		ledger.Put(a.stepsKey().key, ledger.Steps{Used: a.rec.StepsUsed})}}
}

// stepsKey is the key of the conversation's step counter, made once per
// conversation: the ledger never changes a key it is handed.
func (a *Actor) stepsKey() *stepsKey {
	if a.steps.key == nil || a.steps.conv != a.cfg.Conversation {
		key := ledger.StepsKey(a.cfg.Conversation)
		a.steps = stepsKey{conv: a.cfg.Conversation, key: key, name: string(key)}
	}
	return &a.steps
}

// persist writes the session record, synced, and shows the new state.
func (a *Actor) persist(ctx actor.Context) {
	ctx.Send(a.cfg.Ledger, a.write(false))
	a.show()
}

// persistSteps sets the step counter of an act that began, which the
// ledger commits within ledger.LazyWait (Store.SetSteps), carries it across
// a restart of this actor until the ledger has, and shows the session
// working.
func (a *Actor) persistSteps() {
	a.cfg.Carry.stepsUsed(a.rec.StepsUsed)
	a.cfg.Store.SetSteps(a.stepsKey().name, a.rec.StepsUsed)
	a.showWorking()
}

// showWorking shows that an act began. Subscribers that are not passive
// (a dashboard, Telegram, another member's watcher) are sent the state, as
// show does. When none watches sessions, the routing entry (the owner's
// list) is told the act's steps on top of what it shows (ShowWorking), and
// passive subscribers (the journal, the desktop lock) are sent nothing:
// the act's end shows the session again with the same steps, and a restart
// shows it too. That spares a state and an event per act, which nobody
// would read, on a host nobody watches.
func (a *Actor) showWorking() {
	if a.cfg.Bus.Watched(messages.KindSession) || a.cfg.Route != nil && !a.cfg.Route.ShowWorking(a.info()) {
		a.show()
	}
}

// persistThenReply shows an owner's control at once, writes it in the
// owner's lane (retried until it lands), and answers owner once it is
// durable, or with store_failed after ownerWait. The wait runs off the
// mailbox, so the answer comes even if this session stops meanwhile.
func (a *Actor) persistThenReply(ctx actor.Context, owner *actor.PID) {
	info := a.info()
	a.show()
	sys := ctx.ActorSystem()
	ledger.Persist(sys, a.cfg.Ledger, a.write(true), ownerWait, func(err error) {
		if owner == nil {
			return
		}
		if err != nil {
			sys.Root.Send(owner, messages.OwnerFail(messages.CodeStoreFailed.Err(
				"The change is in force, but it", err.Error()+"; buddi keeps trying to save it")))
			return
		}
		sys.Root.Send(owner, &messages.OwnerReply{Result: &info})
	})
}

// show publishes the session's state: into its routing entry, for the
// owner's list, and to subscribers. The entry and the event share the one
// state built: neither is changed once shown.
func (a *Actor) show() {
	active := a.cfg.Bus.Active()
	if a.cfg.Route == nil && !active {
		return
	}
	e := &messages.SessionChanged{Session: a.info()}
	if a.cfg.Route != nil {
		a.cfg.Route.ShowShared(&e.Session)
	}
	if active {
		e.At = a.cfg.Now()
		a.cfg.Bus.Publish(e)
	}
}

// stepTaken counts an act that ran and tells subscribers, with its
// thumbnail and, for a watched conversation, the picture of the page it
// left.
func (a *Actor) stepTaken(w *working, d *done, res *messages.ToolResult) {
	in := w.in
	now := a.cfg.Now()
	if !messages.Spec(in.Action).Reads {
		a.page++
		a.pageAt = now
	}
	took := now.Sub(d.started)
	if a.cfg.Acts != nil {
		var code messages.Code
		if res.Error != nil {
			code = res.Error.Code
		}
		a.cfg.Acts(in.Action, code, took)
	}
	if !a.cfg.Bus.Active() {
		return
	}
	e := &messages.StepTaken{Conversation: a.cfg.Conversation, Agent: a.cfg.Agent, Action: in.Action,
		Words: w.words, URL: a.url, Title: a.title, Page: dotted("", a.rec.Epoch, a.page),
		StepsUsed: a.rec.StepsUsed, StepsMax: a.task.MaxSteps, Picture: d.picture,
		PictureApp: d.pictureApp, PictureAppOnce: d.pictureApp != "" && a.onceApps[d.pictureApp],
		At: now, Took: took}
	switch {
	case res.Error != nil:
		e.Code, e.Reason = res.Error.Code, res.Error.Message
	case d.out != nil:
		e.Outcome = d.out.Result
	case d.obs != nil:
		e.Outcome = "observed"
	default:
		e.Outcome = drivers.Done
	}
	a.cfg.Bus.Publish(e)
}

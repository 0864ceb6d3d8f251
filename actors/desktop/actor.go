package desktop

import (
	"log/slog"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

// DefaultLease is how long a conversation keeps the lock without a call.
// It does not run out while the owner has the conversation taken over
// (Hold), and starts again when they give it back.
const DefaultLease = time.Hour

// saveWait bounds how long the owner waits for the ledger.
const saveWait = 10 * time.Second

// Config is what the lock needs.
type Config struct {
	Store  *ledger.Store // to read the lock as it was at start
	Ledger *actor.PID    // to write it
	Now    func() time.Time
	Lease  time.Duration // 0 means DefaultLease
	Log    *slog.Logger
}

// Props makes the lock actor.
func Props(cfg Config) *actor.Props {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	return actor.PropsFromProducer(func() actor.Actor { return &lock{cfg: cfg} })
}

type lock struct {
	cfg  Config
	rec  ledger.Desktop
	kept string // the holder, while the owner has it taken over
}

func (l *lock) Receive(ctx actor.Context) {
	switch m := ctx.Message().(type) {
	case *actor.Started:
		rec, err := l.cfg.Store.Desktop()
		if err != nil {
			// Unreadable state must not free the computer: refuse until the owner resumes.
			l.cfg.Log.Error("the desktop lock could not be read; computer control stays stopped", "err", err)
			rec = ledger.Desktop{Revoked: true}
		}
		l.rec = rec
	case *Acquire:
		ctx.Respond(l.acquire(ctx, m.Conversation))
	case *Release:
		if l.rec.Holder == m.Conversation && m.Conversation != "" {
			l.rec.Holder, l.rec.Expires, l.kept = "", time.Time{}, ""
			l.save(ctx, false, nil)
		}
		respond(ctx, &Released{})
	case *Hold:
		l.hold(m)
	case *Revoke:
		if l.rec.Revoked && l.rec.Holder == "" {
			respond(ctx, &Saved{})
			return
		}
		l.rec.Revoked, l.rec.Holder, l.rec.Expires, l.kept = true, "", time.Time{}, ""
		l.cfg.Log.Warn("computer control stopped by the owner")
		l.save(ctx, true, ctx.Sender())
	case *Resume:
		if !l.rec.Revoked {
			respond(ctx, &Saved{})
			return
		}
		l.rec.Revoked = false
		l.cfg.Log.Info("computer control resumed by the owner")
		l.save(ctx, true, ctx.Sender())
	case *Query:
		l.expire()
		ctx.Respond(&State{Holder: l.rec.Holder, Expires: l.rec.Expires, Revoked: l.rec.Revoked,
			Kept: l.kept != "" && l.kept == l.rec.Holder})
	}
}

// respond answers the sender, if the message came with one (a Send has none).
func respond(ctx actor.Context, msg any) {
	if ctx.Sender() != nil {
		ctx.Respond(msg)
	}
}

// expire frees a lock whose lease ran out, unless its holder is taken over.
func (l *lock) expire() {
	if l.rec.Holder != "" && l.kept != l.rec.Holder && !l.cfg.Now().Before(l.rec.Expires) {
		l.rec.Holder, l.rec.Expires = "", time.Time{}
	}
}

// hold keeps the holder's lease while the owner has it taken over, and
// starts it again when they give it back.
func (l *lock) hold(m *Hold) {
	switch {
	case m.On && m.Conversation != "" && m.Conversation == l.rec.Holder:
		l.expire() // a lease that ran out before the take-over stays out
		if l.rec.Holder == m.Conversation {
			l.kept = m.Conversation
		}
	case !m.On && m.Conversation != "" && m.Conversation == l.kept:
		l.kept = ""
		if l.rec.Holder == m.Conversation {
			l.rec.Expires = l.cfg.Now().Add(l.cfg.Lease)
		}
	}
}

func (l *lock) acquire(ctx actor.Context, conv string) any {
	if conv == "" {
		return &Refused{Err: messages.Errorf(messages.CodeBadInput, "A conversation is needed to control the computer.")}
	}
	if l.rec.Revoked {
		return &Refused{Err: messages.Errorf(messages.CodeStopped, "The owner stopped computer control; it stays stopped until they resume it.")}
	}
	l.expire()
	if l.rec.Holder != "" && l.rec.Holder != conv {
		return &Refused{Err: messages.Errorf(messages.CodeNotAllowed, "Another conversation controls the computer now; wait until it releases control, or ask the owner.")}
	}
	changed := l.rec.Holder != conv
	l.rec.Holder, l.rec.Expires = conv, l.cfg.Now().Add(l.cfg.Lease)
	if changed {
		l.save(ctx, false, nil)
	}
	return &Held{Expires: l.rec.Expires}
}

// save writes the lock; an owner's write is answered to replyTo once the
// ledger has it.
func (l *lock) save(ctx actor.Context, owner bool, replyTo *actor.PID) {
	l.rec.At = l.cfg.Now()
	w := &ledger.Write{Ops: []ledger.Op{ledger.Put(ledger.DesktopKey(), l.rec)}, Owner: owner}
	if replyTo == nil {
		ctx.Send(l.cfg.Ledger, w)
		return
	}
	f := ledger.Request(ctx, l.cfg.Ledger, w, saveWait)
	ctx.ReenterAfter(f, func(res any, err error) {
		err = ledger.Check(res, err)
		if err != nil {
			l.cfg.Log.Error("the desktop lock was not saved", "err", err)
		}
		ctx.Send(replyTo, &Saved{Err: err})
	})
}

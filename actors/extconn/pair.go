package extconn

import (
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"math/big"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// hello decides a conn's hello: a code to show, the hash to prove buddi
// with, or a refusal.
func (a *Actor) hello(ctx actor.Context, m *helloFrom) any {
	conn := ctx.Sender()
	if m.hello.Pair {
		if a.rec != nil && a.rec.ID != m.id {
			return &refuse{err: otherCopy()}
		}
		if p := a.pairing; p != nil && !p.conn.Equal(conn) {
			a.closeConn(ctx, p.conn, messages.Errorf(messages.CodeExtRefused,
				"Connect was pressed again elsewhere; this code is no longer valid."))
		}
		a.pairing = &pairing{conn: conn, id: m.id, build: m.hello.Build}
		return a.newCode()
	}
	switch {
	case a.rec == nil:
		return &refuse{err: messages.Errorf(messages.CodeNotPaired,
			"This buddi is not paired with a browser; press Connect in the extension to pair again.")}
	case a.rec.ID != m.id:
		return &refuse{err: otherCopy()}
	}
	return &prove{hash: a.rec.TokenHash}
}

func otherCopy() *messages.Error {
	return messages.Errorf(messages.CodeExtRefused,
		"buddi is paired with another copy of the extension; forget that browser in buddi's settings first.")
}

// newCode gives the pairing a fresh six-digit code.
func (a *Actor) newCode() *showCode {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(err) // crypto/rand does not fail on the systems buddi runs on
	}
	p := a.pairing
	p.code, p.wrong = fmt.Sprintf("%06d", n.Int64()), 0
	p.expires = a.cfg.Now().Add(a.cfg.Limits.CodeLife)
	return &showCode{code: p.code, expires: p.expires.UnixMilli()}
}

// pair takes the code the owner typed. Five wrong ones spend it: the
// extension is sent a new one.
func (a *Actor) pair(ctx actor.Context, code string) *messages.OwnerReply {
	p := a.pairing
	if p == nil || !a.cfg.Now().Before(p.expires) {
		a.pairing = nil
		return messages.OwnerFail(messages.Errorf(messages.CodeNoCode,
			"No browser is showing a pairing code; press Connect in the buddi extension's popup first."))
	}
	if len(code) != 6 || subtle.ConstantTimeCompare([]byte(code), []byte(p.code)) != 1 {
		p.wrong++
		if p.wrong >= a.cfg.Limits.CodeTries {
			ctx.Send(p.conn, a.newCode())
			return messages.OwnerFail(messages.Errorf(messages.CodeWrongCode,
				"That code was wrong five times, so it is spent; the extension now shows a new one."))
		}
		return messages.OwnerFail(messages.Errorf(messages.CodeWrongCode,
			"That is not the code the extension shows; check it and type it again."))
	}
	token := secret.New("bx_")
	now := a.cfg.Now().UTC()
	rec := extension.Record{TokenHash: secret.Hash(token), ID: p.id, Build: p.build, PairedAt: now, LastSeen: now}
	if err := extension.Save(a.cfg.Dir, rec); err != nil {
		a.cfg.Log.Error("the extension's pairing was not saved", "err", err)
		return messages.OwnerFail(messages.Errorf(messages.CodeStoreFailed,
			"buddi could not save the pairing; check the data directory and press Connect again."))
	}
	a.rec, a.pairing = &rec, nil
	if a.live != nil { // its token is no longer the paired one
		a.closeConn(ctx, a.live, messages.Errorf(messages.CodeNotPaired, "buddi was paired anew."))
		a.live = nil
	}
	ctx.Send(p.conn, &paired{token: token})
	a.cfg.Log.Info("a browser extension was paired", "extension", p.id, "build", p.build)
	return &messages.OwnerReply{Result: a.view()}
}

// token checks a conn's token; the conn that passes becomes the live one,
// replacing the one before it.
func (a *Actor) token(ctx actor.Context, m *tokenFrom) any {
	conn := ctx.Sender()
	if a.rec == nil || a.rec.ID != m.id || !secret.Match(m.token, a.rec.TokenHash) {
		return &refuse{err: messages.Errorf(messages.CodeExtRefused,
			"The extension's token does not match this buddi's pairing; forget this buddi in the popup and pair again.")}
	}
	if a.live != nil && !a.live.Equal(conn) {
		a.closeConn(ctx, a.live, messages.Errorf(messages.CodeExtRefused, "A newer connection of the extension replaced this one."))
	}
	a.live = conn
	rec := *a.rec
	rec.LastSeen, rec.Build = a.cfg.Now().UTC(), m.build
	if err := extension.Save(a.cfg.Dir, rec); err != nil {
		a.cfg.Log.Warn("the extension's last-seen time was not saved", "err", err)
	}
	a.rec = &rec
	return &accepted{}
}

// forget deletes the pairing and closes every conn.
func (a *Actor) forget(ctx actor.Context) {
	if err := extension.Remove(a.cfg.Dir); err != nil {
		a.cfg.Log.Error("the extension's pairing could not be deleted", "err", err)
	}
	a.rec, a.pairing, a.live = nil, nil, nil
	for _, pid := range a.conns {
		a.closeConn(ctx, pid, messages.Errorf(messages.CodeNotPaired,
			"This browser was forgotten in buddi; press Connect to pair it again."))
	}
	a.cfg.Log.Info("the browser extension was forgotten")
}

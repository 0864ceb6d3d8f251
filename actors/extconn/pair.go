package extconn

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"math/big"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
	"github.com/buddi-dev/buddi/secret"
)

// hello decides a conn's hello: a code to show, the hash to prove buddi
// with, or a refusal. A hello asking to pair gets a code of its own: any
// local process can send one (the extension's id and Origin are public),
// so it never displaces a code showing elsewhere, nor the pairing; only
// the owner typing a code pairs.
func (a *Actor) hello(ctx actor.Context, m *helloFrom) any {
	conn := ctx.Sender()
	if m.hello.Pair {
		if a.rec != nil && a.rec.ID != m.id {
			return &refuse{err: otherCopy()}
		}
		a.expire()
		if len(a.pairings) >= a.cfg.Limits.Pairing {
			return &refuse{err: messages.Errorf(messages.CodeExtRefused,
				"%d pairing codes are showing already; type the one your extension shows in buddi's settings, or wait up to five minutes for them to expire.",
				len(a.pairings))}
		}
		p := &pairing{conn: conn, id: m.id, build: m.hello.Build}
		a.pairings[conn.Id] = p
		return a.newCode(p)
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

// newCode gives p a fresh six-digit code, unlike every other code showing.
func (a *Actor) newCode(p *pairing) *showCode {
	for {
		n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
		if err != nil {
			panic(err) // crypto/rand does not fail on the systems buddi runs on
		}
		p.code = fmt.Sprintf("%06d", n.Int64())
		if a.unique(p) {
			break
		}
	}
	p.expires = a.cfg.Now().Add(a.cfg.Limits.CodeLife)
	return &showCode{code: p.code, expires: p.expires.UnixMilli()}
}

// showing returns the pairing whose code is code, comparing every code in
// constant time, or nil.
func (a *Actor) showing(code string) *pairing {
	var found *pairing
	for _, p := range a.pairings {
		if len(code) == len(p.code) && subtle.ConstantTimeCompare([]byte(code), []byte(p.code)) == 1 {
			found = p
		}
	}
	return found
}

// unique reports whether no other pairing shows p's code.
func (a *Actor) unique(p *pairing) bool {
	for _, q := range a.pairings {
		if q != p && q.code == p.code {
			return false
		}
	}
	return true
}

// expire forgets the codes whose five minutes are over (their conns close
// themselves).
func (a *Actor) expire() {
	for k, p := range a.pairings {
		if !a.cfg.Now().Before(p.expires) {
			delete(a.pairings, k)
		}
	}
}

// pair takes the code the owner typed. Five wrong ones spend every code
// showing: each extension is sent a new one.
func (a *Actor) pair(ctx actor.Context, code string) *messages.OwnerReply {
	a.expire()
	if len(a.pairings) == 0 {
		return messages.OwnerFail(messages.Errorf(messages.CodeNoCode,
			"No browser is showing a pairing code; press Connect in the buddi extension's popup first."))
	}
	p := a.showing(code)
	if p == nil {
		a.wrong++
		if a.wrong >= a.cfg.Limits.CodeTries {
			a.wrong = 0
			for _, q := range a.pairings {
				ctx.Send(q.conn, a.newCode(q))
			}
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
	a.rec, a.wrong = &rec, 0
	delete(a.pairings, p.conn.Id)
	for k, q := range a.pairings { // the owner chose another browser
		a.closeConn(ctx, q.conn, messages.Errorf(messages.CodeExtRefused,
			"buddi was paired with another browser; press Connect to pair this one instead."))
		delete(a.pairings, k)
	}
	if a.live != nil { // its token is no longer the paired one
		a.closeConn(ctx, a.live, messages.Errorf(messages.CodeNotPaired, "buddi was paired anew."))
		a.live = nil
	}
	ctx.Send(p.conn, &paired{token: token})
	a.cfg.Log.Info("a browser extension was paired", "extension", p.id, "build", p.build)
	return &messages.OwnerReply{Result: a.view()}
}

// token checks a conn's token and its proof over the connection; the conn
// that passes becomes the live one, replacing the one before it.
func (a *Actor) token(ctx actor.Context, m *tokenFrom) any {
	conn := ctx.Sender()
	if a.rec == nil || a.rec.ID != m.id || !secret.Match(m.token, a.rec.TokenHash) ||
		!hmac.Equal(m.mac, m.over.mac(a.rec.TokenHash, extwire.ProverExtension)) {
		return &refuse{err: messages.Errorf(messages.CodeExtRefused,
			"The extension's token or its proof does not match this buddi's pairing; forget this buddi in the popup and pair again.")}
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
	a.rec, a.live, a.wrong = nil, nil, 0
	clear(a.pairings)
	for _, pid := range a.conns {
		a.closeConn(ctx, pid, messages.Errorf(messages.CodeNotPaired,
			"This browser was forgotten in buddi; press Connect to pair it again."))
	}
	a.cfg.Log.Info("the browser extension was forgotten")
}

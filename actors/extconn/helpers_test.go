package extconn_test

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/actors/extconn"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
	"github.com/buddi-dev/buddi/secret"
)

const (
	idA = "aaaabbbbccccddddeeeeffffgggghhhh"
	idB = "ppppoooonnnnmmmmllllkkkkjjjjiiii"
	// addr is buddi's end of every socket here, and what the extension dialled.
	addr = "127.0.0.1:7777"
)

// buddi is the connection actor on a fake clock, in a temp data dir.
type buddi struct {
	sys   *actor.ActorSystem
	pid   *actor.PID
	clock *actortest.Clock
	dir   string
}

func start(t testing.TB) *buddi {
	t.Helper()
	b := &buddi{sys: actortest.System(t), clock: actortest.NewClock(time.Unix(1_000_000, 0)), dir: t.TempDir()}
	b.pid = b.sys.Root.Spawn(extconn.Props(extconn.Config{Dir: b.dir, Name: "buddi test", Now: b.clock.Now,
		Limits: extconn.Limits{Tick: 2 * time.Millisecond}}))
	t.Cleanup(func() { _ = b.sys.Root.PoisonFuture(b.pid).Wait() })
	return b
}

// wire is the extension's socket at the seam the actor owns.
type wire struct {
	out    chan *extwire.Out
	closed chan *messages.Error
	once   sync.Once
}

func (w *wire) Send(b []byte) {
	var m extwire.Out
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	w.out <- &m
}

func (w *wire) Close(why *messages.Error) { w.once.Do(func() { w.closed <- why; close(w.closed) }) }

// ext is one connection as the extension sees it.
type ext struct {
	t     testing.TB
	b     *buddi
	w     *wire
	link  messages.ExtensionLink
	id    string
	nonce []byte
}

func (b *buddi) open(t testing.TB, id string) *ext {
	t.Helper()
	w := &wire{out: make(chan *extwire.Out, 64), closed: make(chan *messages.Error, 1)}
	r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.ExtensionOpen{ExtensionID: id, Addr: addr, Wire: w})
	if r.Error != nil {
		t.Fatalf("open refused: %+v", r.Error)
	}
	return &ext{t: t, b: b, w: w, id: id, link: r.Result.(*messages.ExtensionOpened).Link}
}

// raw passes bytes as the surface would: decoded, or reported bad.
func (e *ext) raw(s string) {
	in, bad := extwire.Decode([]byte(s))
	if bad != nil {
		e.link.Bad(bad)
		return
	}
	e.link.Message(in)
}

func (e *ext) msg(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		e.t.Fatal(err)
	}
	e.raw(string(b))
}

func (e *ext) hello(pair bool) {
	e.nonce = make([]byte, 32)
	_, _ = rand.Read(e.nonce)
	e.msg(&extwire.Hello{Type: "hello", Nonce: base64.StdEncoding.EncodeToString(e.nonce), Pair: pair, Build: "0.1.0.0"})
}

// expect waits for buddi's next message, which must be of type typ; pings
// on the way are answered, as the extension does, unless typ is ping.
func (e *ext) expect(typ string) *extwire.Out {
	e.t.Helper()
	for {
		if m := e.next(typ); m != nil {
			return m
		}
	}
}

func (e *ext) next(typ string) *extwire.Out {
	e.t.Helper()
	select {
	case m := <-e.w.out:
		if m.Type == extwire.PingType && typ != m.Type {
			e.msg(&extwire.Pong{Type: "pong", Seq: m.Seq})
			return nil
		}
		if m.Type != typ {
			e.t.Fatalf("buddi sent %s (%+v), want %s", m.Type, m, typ)
		}
		return m
	case why := <-e.w.closed:
		e.t.Fatalf("the connection closed (%+v) while waiting for %s", why, typ)
	case <-time.After(actortest.Wait):
		e.t.Fatalf("no %s came", typ)
	}
	return nil
}

// expectClosed waits for the connection to close with code.
func (e *ext) expectClosed(code messages.Code) {
	e.t.Helper()
	for {
		select {
		case m := <-e.w.out:
			if m.Type == extwire.CommandType || m.Type == extwire.ReadyType {
				e.t.Fatalf("buddi sent %s on a connection it was closing", m.Type)
			}
		case why := <-e.w.closed:
			if why == nil || why.Code != code || why.Message == "" {
				e.t.Fatalf("closed with %+v, want %s and a sentence", why, code)
			}
			return
		case <-time.After(actortest.Wait):
			e.t.Fatalf("the connection did not close (want %s)", code)
		}
	}
}

// expectQuiet checks buddi sends nothing for a while (a check that can
// only pass wrongly, never fail wrongly).
func (e *ext) expectQuiet() {
	e.t.Helper()
	select {
	case m := <-e.w.out:
		e.t.Fatalf("buddi sent %+v, want nothing", m)
	case why := <-e.w.closed:
		e.t.Fatalf("the connection closed: %+v", why)
	case <-time.After(50 * time.Millisecond):
	}
}

// proveWith checks buddi's proof against token, sends the token, and
// expects ready.
func (e *ext) proveWith(token string) {
	e.t.Helper()
	e.hello(false)
	p := e.expect(extwire.ProofType)
	if !e.verify(token, p) {
		e.t.Fatal("buddi's proof does not match the token")
	}
	e.msg(e.answer(token, p))
	e.expect(extwire.ReadyType)
}

// verify checks buddi's proof as the extension does: with its token, the
// address it dialled, its id and both nonces.
func (e *ext) verify(token string, p *extwire.Out) bool {
	theirs, err := base64.StdEncoding.DecodeString(p.Nonce)
	if err != nil || p.Addr != addr {
		return false
	}
	got, err := base64.StdEncoding.DecodeString(p.Sig)
	return err == nil && hmac.Equal(got, extwire.Proof(secret.Hash(token), extwire.ProverBuddi, addr, e.id, e.nonce, theirs))
}

// answer is the extension's token with its proof over this connection.
func (e *ext) answer(token string, p *extwire.Out) *extwire.Token {
	theirs, _ := base64.StdEncoding.DecodeString(p.Nonce)
	mac := extwire.Proof(secret.Hash(token), extwire.ProverExtension, addr, e.id, e.nonce, theirs)
	return &extwire.Token{Type: "token", Token: token, Proof: base64.StdEncoding.EncodeToString(mac)}
}

// pair pairs a new connection of id and returns it (ready) and its token.
func (b *buddi) pair(t testing.TB, id string) (*ext, string) {
	t.Helper()
	e := b.open(t, id)
	e.hello(true)
	code := e.expect(extwire.CodeType).Code
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: code}); r.Error != nil {
		t.Fatalf("pairing with the shown code: %+v", r.Error)
	}
	token := e.expect(extwire.PairedType).Token
	e.proveWith(token)
	return e, token
}

// call sends a command and returns where its reply will come.
func (b *buddi) call(method string) *actor.Future {
	return b.sys.Root.RequestFuture(b.pid, &extconn.Send{Method: method, Params: json.RawMessage(`{"x":1}`)}, actortest.Wait)
}

func replyOf(t testing.TB, f *actor.Future) *extconn.Reply {
	t.Helper()
	res, err := f.Result()
	if err != nil {
		t.Fatalf("no reply: %v", err)
	}
	return res.(*extconn.Reply)
}

func (b *buddi) view(t testing.TB) *messages.ExtensionView {
	t.Helper()
	r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.GetExtension{})
	return r.Result.(*messages.ExtensionView)
}

// restartIn starts the actor again on dir.
func restartIn(t testing.TB, dir string) *buddi {
	t.Helper()
	b := &buddi{sys: actortest.System(t), clock: actortest.NewClock(time.Unix(2_000_000, 0)), dir: dir}
	b.pid = b.sys.Root.Spawn(extconn.Props(extconn.Config{Dir: dir, Now: b.clock.Now,
		Limits: extconn.Limits{Tick: 2 * time.Millisecond}}))
	t.Cleanup(func() { _ = b.sys.Root.PoisonFuture(b.pid).Wait() })
	return b
}

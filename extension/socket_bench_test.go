package extension_test

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"testing"

	"golang.org/x/net/websocket"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages/extwire"
	"github.com/buddi-dev/buddi/secret"
)

// goExt is the extension's side of the wire, in Go, for measuring.
type goExt struct {
	tb    testing.TB
	ws    *websocket.Conn
	addr  string // what it dialled
	nonce []byte
}

func dialExt(tb testing.TB, addr string) *goExt {
	tb.Helper()
	cfg, err := websocket.NewConfig("ws://"+addr+"/api/extension/socket", "chrome-extension://"+extension.ID())
	if err != nil {
		tb.Fatal(err)
	}
	ws, err := websocket.DialConfig(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return &goExt{tb: tb, ws: ws, addr: addr}
}

func (e *goExt) send(v any) {
	if err := websocket.JSON.Send(e.ws, v); err != nil {
		e.tb.Fatal(err)
	}
}

func (e *goExt) recv(typ string) *extwire.Out {
	for {
		var m extwire.Out
		if err := websocket.JSON.Receive(e.ws, &m); err != nil {
			e.tb.Fatalf("waiting for %s: %v", typ, err)
		}
		if m.Type == typ {
			return &m
		}
		if m.Type != extwire.PingType {
			e.tb.Fatalf("got %+v, want %s", m, typ)
		}
	}
}

func (e *goExt) hello(pair bool) {
	e.nonce = make([]byte, 32)
	_, _ = rand.Read(e.nonce)
	e.send(&extwire.Hello{Type: "hello", Nonce: base64.StdEncoding.EncodeToString(e.nonce), Pair: pair, Build: "0.1.0.0"})
}

// prove does the handshake of a paired extension, checking buddi's proof.
func (e *goExt) prove(token string) {
	e.hello(false)
	p := e.recv(extwire.ProofType)
	theirs, _ := base64.StdEncoding.DecodeString(p.Nonce)
	hash := secret.Hash(token)
	want := extwire.Proof(hash, extwire.ProverBuddi, e.addr, extension.ID(), e.nonce, theirs)
	if sig, _ := base64.StdEncoding.DecodeString(p.Sig); !hmac.Equal(sig, want) {
		e.tb.Fatal("buddi's proof does not verify")
	}
	mine := extwire.Proof(hash, extwire.ProverExtension, e.addr, extension.ID(), e.nonce, theirs)
	e.send(&extwire.Token{Type: "token", Token: token, Proof: base64.StdEncoding.EncodeToString(mine)})
	e.recv(extwire.ReadyType)
}

// BenchmarkSocketHandshake measures one reconnection of a paired
// extension over a real WebSocket on 127.0.0.1 to a real buddi: the
// upgrade, the hello, buddi's proof (checked), the token, ready.
func BenchmarkSocketHandshake(b *testing.B) {
	d := daemontest.Start(b, "", daemon.Options{Version: "bench"})
	e := dialExt(b, d.Addr())
	e.hello(true)
	code := e.recv(extwire.CodeType).Code
	d.Must(b, http.MethodPost, "/api/extension/pair", map[string]string{"code": code})
	token := e.recv(extwire.PairedType).Token
	e.prove(token)
	b.ResetTimer()
	for b.Loop() {
		n := dialExt(b, d.Addr())
		n.prove(token)
		_ = n.ws.Close()
	}
	b.StopTimer()
	_ = e.ws.Close()
}

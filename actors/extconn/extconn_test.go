package extconn_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/messages/extwire"
	"github.com/buddi-dev/buddi/secret"
)

func TestPairingStoresOnlyTheTokensHashAndProvesBothWays(t *testing.T) {
	b := start(t)
	_, token := b.pair(t, idA)
	raw, err := os.ReadFile(filepath.Join(b.dir, extension.File))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), token) || !strings.Contains(string(raw), secret.Hash(token)) {
		t.Fatalf("extension.json must hold the token's hash and not the token: %s", raw)
	}
	if fi, _ := os.Stat(filepath.Join(b.dir, extension.File)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("extension.json is %v, want 0600", fi.Mode().Perm())
	}
	v := b.view(t)
	if !v.Paired || !v.Connected || v.ID != idA || v.Build != "0.1.0.0" || v.PairedAt.IsZero() || v.LastSeen.IsZero() {
		t.Fatalf("view after pairing: %+v", v)
	}
}

func TestACommandReachesOnlyTheProvenConnection(t *testing.T) {
	b := start(t)
	if r := replyOf(t, b.call("tabs.count")); r.Err == nil || r.Err.Code != messages.CodeBrowserOffline {
		t.Fatalf("a command with no extension: %+v", r)
	}
	a, token := b.pair(t, idA)
	// A second connection that has proved buddi but not sent its token
	// gets nothing; the live one gets the command.
	second := b.open(t, idA)
	second.hello(false)
	proof := second.expect(extwire.ProofType)
	f := b.call("tabs.count")
	cmd := a.expect(extwire.CommandType)
	if cmd.Method != "tabs.count" || cmd.ID <= 0 || string(cmd.Params) != `{"x":1}` {
		t.Fatalf("command: %+v", cmd)
	}
	a.msg(&extwire.Reply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`3`)})
	if r := replyOf(t, f); r.Err != nil || string(r.Result) != "3" {
		t.Fatalf("reply: %+v", r)
	}
	second.expectQuiet()
	// Once it sends the token it replaces the first, which is closed.
	second.msg(second.answer(token, proof))
	second.expect(extwire.ReadyType)
	a.expectClosed(messages.CodeExtRefused)
	f = b.call("tabs.count")
	cmd = second.expect(extwire.CommandType)
	second.msg(&extwire.Reply{Type: "reply", ID: cmd.ID, Error: &messages.Error{Code: "no_tab", Message: "No such tab."}})
	if r := replyOf(t, f); r.Err == nil || r.Err.Code != "no_tab" {
		t.Fatalf("error reply: %+v", r)
	}
}

func TestHandshakeRefusals(t *testing.T) {
	zeros := base64.StdEncoding.EncodeToString(make([]byte, 32))
	for name, tc := range map[string]struct {
		paired bool
		do     func(e *ext, token string)
		code   messages.Code
	}{
		"token before hello": {true, func(e *ext, _ string) {
			e.msg(&extwire.Token{Type: "token", Token: "bx_" + strings.Repeat("0", 64), Proof: zeros})
		}, messages.CodeExtRefused},
		"reply before proof": {true, func(e *ext, _ string) {
			e.msg(&extwire.Reply{Type: "reply", ID: 1, Result: json.RawMessage(`1`)})
		}, messages.CodeExtRefused},
		"reply after the proof, before the token": {true, func(e *ext, _ string) {
			e.hello(false)
			e.expect(extwire.ProofType)
			e.msg(&extwire.Reply{Type: "reply", ID: 1, Result: json.RawMessage(`1`)})
		}, messages.CodeExtRefused},
		"wrong token": {true, func(e *ext, _ string) {
			e.hello(false)
			e.msg(e.answer("bx_"+strings.Repeat("0", 64), e.expect(extwire.ProofType)))
		}, messages.CodeExtRefused},
		"right token, no proof": {true, func(e *ext, token string) {
			e.hello(false)
			e.expect(extwire.ProofType)
			e.msg(&extwire.Token{Type: "token", Token: token, Proof: zeros})
		}, messages.CodeExtRefused},
		"right token, proof through a relay at another address": {true, func(e *ext, token string) {
			e.hello(false)
			p := e.expect(extwire.ProofType)
			theirs, _ := base64.StdEncoding.DecodeString(p.Nonce)
			mac := extwire.Proof(secret.Hash(token), extwire.ProverExtension, "127.0.0.1:7778", e.id, e.nonce, theirs)
			e.msg(&extwire.Token{Type: "token", Token: token, Proof: base64.StdEncoding.EncodeToString(mac)})
		}, messages.CodeExtRefused},
		"right token, proof over another of buddi's nonces": {true, func(e *ext, token string) {
			e.hello(false)
			p := e.expect(extwire.ProofType)
			p.Nonce = zeros
			e.msg(e.answer(token, p))
		}, messages.CodeExtRefused},
		"right token, buddi's own proof sent back": {true, func(e *ext, token string) {
			e.hello(false)
			p := e.expect(extwire.ProofType)
			e.msg(&extwire.Token{Type: "token", Token: token, Proof: p.Sig})
		}, messages.CodeExtRefused},
		"bad nonce": {true, func(e *ext, _ string) { e.raw(`{"type":"hello","nonce":"c2hvcnQ=","build":"1.0.0.0"}`) }, messages.CodeBadMessage},
		"malformed": {true, func(e *ext, _ string) { e.raw(`{"type":"hello",`) }, messages.CodeBadMessage},
		"unknown field": {true, func(e *ext, _ string) {
			e.raw(`{"type":"pong","seq":1,"token":"x"}`)
		}, messages.CodeBadMessage},
		"oversized": {true, func(e *ext, _ string) {
			e.raw(`{"type":"reply","id":1,"result":"` + strings.Repeat("a", extwire.MaxMessage) + `"}`)
		}, messages.CodeBadMessage},
		"hello twice": {true, func(e *ext, _ string) {
			e.hello(false)
			e.expect(extwire.ProofType)
			e.hello(false)
		}, messages.CodeExtRefused},
		"unpaired hello":  {false, func(e *ext, _ string) { e.hello(false) }, messages.CodeNotPaired},
		"silent too long": {false, func(e *ext, _ string) { e.b.clock.Advance(extwire.HelloWait) }, messages.CodeExtRefused},
	} {
		t.Run(name, func(t *testing.T) {
			b := start(t)
			var token string
			if tc.paired {
				_, token = b.pair(t, idA)
			}
			e := b.open(t, idA)
			tc.do(e, token)
			e.expectClosed(tc.code)
			if v := b.view(t); tc.paired && (v.ID != idA || !v.Connected) {
				t.Fatalf("a refused connection changed the pairing or dropped the live one: %+v", v)
			}
		})
	}
}

func TestAReplyForAnUnknownIDIsRefusedAndTheConnectionGoesOn(t *testing.T) {
	b := start(t)
	a, _ := b.pair(t, idA)
	a.msg(&extwire.Reply{Type: "reply", ID: 99, Result: json.RawMessage(`1`)})
	n := a.expect(extwire.NoticeType)
	if n.ID != 99 || n.Error == nil || n.Error.Code != messages.CodeBadMessage {
		t.Fatalf("notice: %+v", n)
	}
	f := b.call("tabs.count")
	cmd := a.expect(extwire.CommandType)
	a.msg(&extwire.Reply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`2`)})
	if r := replyOf(t, f); r.Err != nil {
		t.Fatalf("reply: %+v", r)
	}
}

func TestThreeMissedPingsClose(t *testing.T) {
	b := start(t)
	a, _ := b.pair(t, idA)
	// Answered pings keep the connection.
	for range 5 {
		b.clock.Advance(extwire.PingEvery)
		p := a.expect(extwire.PingType)
		a.msg(&extwire.Pong{Type: "pong", Seq: p.Seq})
	}
	for range 3 {
		b.clock.Advance(extwire.PingEvery)
		a.expect(extwire.PingType)
	}
	b.clock.Advance(extwire.PingEvery)
	a.expectClosed(messages.CodeBrowserOffline)
	if r := replyOf(t, b.call("tabs.count")); r.Err == nil || r.Err.Code != messages.CodeBrowserOffline {
		t.Fatalf("a command after the close: %+v", r)
	}
}

func TestAnUnansweredCommandFailsAndNothingFollowsItsAbandonUntilConfirmed(t *testing.T) {
	b := start(t)
	a, _ := b.pair(t, idA)
	stuck := b.call("page.stall")
	first := a.expect(extwire.CommandType)
	b.clock.Advance(extwire.CommandWait)
	r := replyOf(t, stuck)
	if r.Err == nil || r.Err.Code != messages.CodeTimeout || !strings.Contains(r.Err.Message, "abandon") {
		t.Fatalf("the stuck command: %+v", r)
	}
	if ab := a.expect(extwire.AbandonType); ab.ID != first.ID {
		t.Fatalf("abandon %d, want %d", ab.ID, first.ID)
	}
	next := b.call("tabs.count")
	b.clock.Advance(extwire.AbandonWait - time.Second) // pings are due, but nothing may be sent
	a.expectQuiet()
	// The late reply of the abandoned command is dropped quietly.
	a.msg(&extwire.Reply{Type: "reply", ID: first.ID, Result: json.RawMessage(`1`)})
	a.msg(&extwire.Abandoned{Type: "abandoned", ID: first.ID})
	cmd := a.expect(extwire.CommandType)
	if cmd.Method != "tabs.count" {
		t.Fatalf("after the abandon: %+v", cmd)
	}
	a.msg(&extwire.Reply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`4`)})
	if r := replyOf(t, next); r.Err != nil || string(r.Result) != "4" {
		t.Fatalf("the command queued behind the abandon: %+v", r)
	}

	// Unconfirmed, the abandon is let go after ten seconds.
	b.call("page.stall")
	a.expect(extwire.CommandType)
	b.clock.Advance(extwire.CommandWait)
	a.expect(extwire.AbandonType)
	later := b.call("tabs.count")
	a.expectQuiet()
	b.clock.Advance(extwire.AbandonWait)
	cmd = a.expect(extwire.CommandType)
	a.msg(&extwire.Reply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`5`)})
	if r := replyOf(t, later); r.Err != nil {
		t.Fatalf("after the abandon wait: %+v", r)
	}
}

func TestFiveWrongCodesSpendTheCode(t *testing.T) {
	b := start(t)
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: "123456"}); r.Error == nil || r.Error.Code != messages.CodeNoCode {
		t.Fatalf("a code with none showing: %+v", r)
	}
	e := b.open(t, idA)
	e.hello(true)
	code := e.expect(extwire.CodeType).Code
	if v := b.view(t); v.Pairing != idA || v.Paired {
		t.Fatalf("view while a code shows: %+v", v)
	}
	wrong := "000000"
	if code == wrong {
		wrong = "000001"
	}
	for i := range 5 {
		r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: wrong})
		if r.Error == nil || r.Error.Code != messages.CodeWrongCode {
			t.Fatalf("wrong code %d: %+v", i+1, r)
		}
	}
	fresh := e.expect(extwire.CodeType)
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: code}); fresh.Code != code && r.Error == nil {
		t.Fatal("the spent code still paired")
	}
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: fresh.Code}); r.Error != nil {
		t.Fatalf("the new code: %+v", r.Error)
	}
	e.expect(extwire.PairedType)
}

func TestACodeAndItsConnectionLiveFiveMinutes(t *testing.T) {
	b := start(t)
	e := b.open(t, idA)
	e.hello(true)
	code := e.expect(extwire.CodeType).Code
	b.clock.Advance(extwire.PingEvery)
	p := e.expect(extwire.PingType) // pings keep the worker awake while the owner types
	e.msg(&extwire.Pong{Type: "pong", Seq: p.Seq})
	b.clock.Advance(extwire.CodeLife)
	e.expectClosed(messages.CodeExpired)
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: code}); r.Error == nil || r.Error.Code != messages.CodeNoCode {
		t.Fatalf("an expired code: %+v", r)
	}
}

func TestASecondCopyIsRefusedUntilForgotten(t *testing.T) {
	b := start(t)
	a, _ := b.pair(t, idA)
	for _, pair := range []bool{true, false} {
		other := b.open(t, idB)
		other.hello(pair)
		other.expectClosed(messages.CodeExtRefused)
	}
	if v := b.view(t); v.ID != idA || !v.Connected {
		t.Fatalf("the second copy changed the pairing: %+v", v)
	}
	r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.ForgetExtension{})
	if v := r.Result.(*messages.ExtensionView); v.Paired || v.Connected {
		t.Fatalf("after forget: %+v", v)
	}
	a.expectClosed(messages.CodeNotPaired)
	if _, err := os.Stat(filepath.Join(b.dir, extension.File)); !os.IsNotExist(err) {
		t.Fatalf("extension.json survived forget: %v", err)
	}
	b.pair(t, idB)
}

func TestForgetFromThePopup(t *testing.T) {
	b := start(t)
	a, token := b.pair(t, idA)
	a.msg(&extwire.Forget{Type: "forget"})
	a.expectClosed(messages.CodeNotPaired)
	again := b.open(t, idA)
	again.hello(false)
	again.expectClosed(messages.CodeNotPaired)
	if v := b.view(t); v.Paired {
		t.Fatalf("still paired: %+v (token %s)", v, token[:4])
	}
}

func TestTheRecordSurvivesARestart(t *testing.T) {
	b := start(t)
	_, token := b.pair(t, idA)
	_ = b.sys.Root.PoisonFuture(b.pid).Wait()
	b2 := restartIn(t, b.dir)
	e := b2.open(t, idA)
	e.proveWith(token)
	if v := b2.view(t); !v.Connected || v.LastSeen.Before(time.Unix(1_000_000, 0)) {
		t.Fatalf("after restart: %+v", v)
	}
}

// Anyone on this computer can say hello as the extension (its id and its
// Origin are public): such a hello gets a proof over buddi's own nonce as
// well as its own, the address and the id, never a signature over the
// nonce it chose alone, and that proof verifies nowhere else.
func TestBuddisProofIsOverBothNoncesTheAddressAndTheID(t *testing.T) {
	b := start(t)
	_, token := b.pair(t, idA)
	hash := secret.Hash(token)
	impostor := b.open(t, idA)
	impostor.hello(false)
	p := impostor.expect(extwire.ProofType)
	sig, _ := base64.StdEncoding.DecodeString(p.Sig)
	ours, err := base64.StdEncoding.DecodeString(p.Nonce)
	if err != nil || len(ours) != 32 || p.Addr != addr {
		t.Fatalf("the proof's nonce %q and address %q", p.Nonce, p.Addr)
	}
	if !impostor.verify(token, p) {
		t.Fatal("the proof does not verify over the connection it was made for")
	}
	for name, other := range map[string][]byte{
		"over the chosen nonce alone":   hmacOf(hash, impostor.nonce),
		"through a relay elsewhere":     extwire.Proof(hash, extwire.ProverBuddi, "127.0.0.1:7778", idA, impostor.nonce, ours),
		"for another copy":              extwire.Proof(hash, extwire.ProverBuddi, addr, idB, impostor.nonce, ours),
		"as the extension's own proof":  extwire.Proof(hash, extwire.ProverExtension, addr, idA, impostor.nonce, ours),
		"with the nonces the other way": extwire.Proof(hash, extwire.ProverBuddi, addr, idA, ours, impostor.nonce),
	} {
		if hmac.Equal(sig, other) {
			t.Errorf("buddi's proof equals one %s", name)
		}
	}
	again := b.open(t, idA)
	again.nonce = impostor.nonce
	again.msg(&extwire.Hello{Type: "hello", Nonce: base64.StdEncoding.EncodeToString(again.nonce), Build: "0.1.0.0"})
	if q := again.expect(extwire.ProofType); q.Sig == p.Sig || q.Nonce == p.Nonce {
		t.Fatal("the same chosen nonce got the same proof twice")
	}
}

// A hello asking to pair gets a code of its own and displaces nothing:
// not the live connection, not the pairing, not another code showing.
// Only the code the owner types pairs, and the others then close.
func TestAPairingHelloDisplacesNothing(t *testing.T) {
	b := start(t)
	live, _ := b.pair(t, idA)
	impostor := b.open(t, idA)
	impostor.hello(true)
	bad := impostor.expect(extwire.CodeType).Code
	f := b.call("tabs.count")
	cmd := live.expect(extwire.CommandType)
	live.msg(&extwire.Reply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`1`)})
	if r := replyOf(t, f); r.Err != nil {
		t.Fatalf("the live connection stopped answering: %+v", r.Err)
	}
	if v := b.view(t); !v.Paired || !v.Connected || v.ID != idA {
		t.Fatalf("a pairing hello changed the pairing: %+v", v)
	}
	owners := b.open(t, idA)
	owners.hello(true)
	good := owners.expect(extwire.CodeType).Code
	late := b.open(t, idA)
	late.hello(true)
	if c := late.expect(extwire.CodeType).Code; c == good || c == bad {
		t.Fatalf("two connections show the same code %s", c)
	}
	owners.expectQuiet() // still showing its code
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: good}); r.Error != nil {
		t.Fatalf("the code the owner saw: %+v", r.Error)
	}
	owners.expect(extwire.PairedType)
	impostor.expectClosed(messages.CodeExtRefused)
	late.expectClosed(messages.CodeExtRefused)
	live.expectClosed(messages.CodeNotPaired)
}

// At most extwire.MaxPairing codes show at once; one more is refused
// with a sentence, and the codes showing still pair.
func TestCodesShowingAreBounded(t *testing.T) {
	b := start(t)
	var first string
	for i := range extwire.MaxPairing {
		e := b.open(t, idA)
		e.hello(true)
		if c := e.expect(extwire.CodeType).Code; i == 0 {
			first = c
		}
	}
	over := b.open(t, idA)
	over.hello(true)
	over.expectClosed(messages.CodeExtRefused)
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: first}); r.Error != nil {
		t.Fatalf("the first code after the bound: %+v", r.Error)
	}
}

// hmacOf is the proof of buddi before it covered the connection: the
// nonce alone, keyed by the token's hash.
func hmacOf(hash string, nonce []byte) []byte {
	key, _ := hex.DecodeString(hash)
	m := hmac.New(sha256.New, key)
	m.Write(nonce)
	return m.Sum(nil)
}

package extconn_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/actortest"
	"github.com/buddi-dev/buddi/extension"
	"github.com/buddi-dev/buddi/messages"
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
	second.expect(messages.ExtProofType)
	f := b.call("tabs.count")
	cmd := a.expect(messages.ExtCommandType)
	if cmd.Method != "tabs.count" || cmd.ID <= 0 || string(cmd.Params) != `{"x":1}` {
		t.Fatalf("command: %+v", cmd)
	}
	a.msg(&messages.ExtReply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`3`)})
	if r := replyOf(t, f); r.Err != nil || string(r.Result) != "3" {
		t.Fatalf("reply: %+v", r)
	}
	second.expectQuiet()
	// Once it sends the token it replaces the first, which is closed.
	second.msg(&messages.ExtToken{Type: "token", Token: token})
	second.expect(messages.ExtReadyType)
	a.expectClosed(messages.CodeExtRefused)
	f = b.call("tabs.count")
	cmd = second.expect(messages.ExtCommandType)
	second.msg(&messages.ExtReply{Type: "reply", ID: cmd.ID, Error: &messages.Error{Code: "no_tab", Message: "No such tab."}})
	if r := replyOf(t, f); r.Err == nil || r.Err.Code != "no_tab" {
		t.Fatalf("error reply: %+v", r)
	}
}

func TestHandshakeRefusals(t *testing.T) {
	for name, tc := range map[string]struct {
		paired bool
		do     func(e *ext)
		code   messages.Code
	}{
		"token before hello": {true, func(e *ext) {
			e.msg(&messages.ExtToken{Type: "token", Token: "bx_" + strings.Repeat("0", 64)})
		}, messages.CodeExtRefused},
		"reply before proof": {true, func(e *ext) {
			e.msg(&messages.ExtReply{Type: "reply", ID: 1, Result: json.RawMessage(`1`)})
		}, messages.CodeExtRefused},
		"reply after the proof, before the token": {true, func(e *ext) {
			e.hello(false)
			e.expect(messages.ExtProofType)
			e.msg(&messages.ExtReply{Type: "reply", ID: 1, Result: json.RawMessage(`1`)})
		}, messages.CodeExtRefused},
		"wrong token": {true, func(e *ext) {
			e.hello(false)
			e.expect(messages.ExtProofType)
			e.msg(&messages.ExtToken{Type: "token", Token: "bx_" + strings.Repeat("0", 64)})
		}, messages.CodeExtRefused},
		"bad nonce": {true, func(e *ext) { e.raw(`{"type":"hello","nonce":"c2hvcnQ=","build":"1.0.0.0"}`) }, messages.CodeBadMessage},
		"malformed": {true, func(e *ext) { e.raw(`{"type":"hello",`) }, messages.CodeBadMessage},
		"unknown field": {true, func(e *ext) {
			e.raw(`{"type":"pong","seq":1,"token":"x"}`)
		}, messages.CodeBadMessage},
		"oversized": {true, func(e *ext) {
			e.raw(`{"type":"reply","id":1,"result":"` + strings.Repeat("a", messages.ExtMaxMessage) + `"}`)
		}, messages.CodeBadMessage},
		"hello twice":     {true, func(e *ext) { e.hello(false); e.expect(messages.ExtProofType); e.hello(false) }, messages.CodeExtRefused},
		"unpaired hello":  {false, func(e *ext) { e.hello(false) }, messages.CodeNotPaired},
		"silent too long": {false, func(e *ext) { e.b.clock.Advance(messages.ExtHelloWait) }, messages.CodeExtRefused},
	} {
		t.Run(name, func(t *testing.T) {
			b := start(t)
			if tc.paired {
				b.pair(t, idA)
			}
			e := b.open(t, idA)
			tc.do(e)
			e.expectClosed(tc.code)
			if tc.paired && b.view(t).ID != idA {
				t.Fatal("a refused connection changed the pairing")
			}
		})
	}
}

func TestAReplyForAnUnknownIDIsRefusedAndTheConnectionGoesOn(t *testing.T) {
	b := start(t)
	a, _ := b.pair(t, idA)
	a.msg(&messages.ExtReply{Type: "reply", ID: 99, Result: json.RawMessage(`1`)})
	n := a.expect(messages.ExtNoticeType)
	if n.ID != 99 || n.Error == nil || n.Error.Code != messages.CodeBadMessage {
		t.Fatalf("notice: %+v", n)
	}
	f := b.call("tabs.count")
	cmd := a.expect(messages.ExtCommandType)
	a.msg(&messages.ExtReply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`2`)})
	if r := replyOf(t, f); r.Err != nil {
		t.Fatalf("reply: %+v", r)
	}
}

func TestThreeMissedPingsClose(t *testing.T) {
	b := start(t)
	a, _ := b.pair(t, idA)
	// Answered pings keep the connection.
	for range 5 {
		b.clock.Advance(messages.ExtPingEvery)
		p := a.expect(messages.ExtPingType)
		a.msg(&messages.ExtPong{Type: "pong", Seq: p.Seq})
	}
	for range 3 {
		b.clock.Advance(messages.ExtPingEvery)
		a.expect(messages.ExtPingType)
	}
	b.clock.Advance(messages.ExtPingEvery)
	a.expectClosed(messages.CodeBrowserOffline)
	if r := replyOf(t, b.call("tabs.count")); r.Err == nil || r.Err.Code != messages.CodeBrowserOffline {
		t.Fatalf("a command after the close: %+v", r)
	}
}

func TestAnUnansweredCommandFailsAndNothingFollowsItsAbandonUntilConfirmed(t *testing.T) {
	b := start(t)
	a, _ := b.pair(t, idA)
	stuck := b.call("page.stall")
	first := a.expect(messages.ExtCommandType)
	b.clock.Advance(messages.ExtCommandWait)
	r := replyOf(t, stuck)
	if r.Err == nil || r.Err.Code != messages.CodeTimeout || !strings.Contains(r.Err.Message, "abandon") {
		t.Fatalf("the stuck command: %+v", r)
	}
	if ab := a.expect(messages.ExtAbandonType); ab.ID != first.ID {
		t.Fatalf("abandon %d, want %d", ab.ID, first.ID)
	}
	next := b.call("tabs.count")
	b.clock.Advance(messages.ExtAbandonWait - time.Second) // pings are due, but nothing may be sent
	a.expectQuiet()
	// The late reply of the abandoned command is dropped quietly.
	a.msg(&messages.ExtReply{Type: "reply", ID: first.ID, Result: json.RawMessage(`1`)})
	a.msg(&messages.ExtAbandoned{Type: "abandoned", ID: first.ID})
	cmd := a.expect(messages.ExtCommandType)
	if cmd.Method != "tabs.count" {
		t.Fatalf("after the abandon: %+v", cmd)
	}
	a.msg(&messages.ExtReply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`4`)})
	if r := replyOf(t, next); r.Err != nil || string(r.Result) != "4" {
		t.Fatalf("the command queued behind the abandon: %+v", r)
	}

	// Unconfirmed, the abandon is let go after ten seconds.
	b.call("page.stall")
	a.expect(messages.ExtCommandType)
	b.clock.Advance(messages.ExtCommandWait)
	a.expect(messages.ExtAbandonType)
	later := b.call("tabs.count")
	a.expectQuiet()
	b.clock.Advance(messages.ExtAbandonWait)
	cmd = a.expect(messages.ExtCommandType)
	a.msg(&messages.ExtReply{Type: "reply", ID: cmd.ID, Result: json.RawMessage(`5`)})
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
	code := e.expect(messages.ExtCodeType).Code
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
	fresh := e.expect(messages.ExtCodeType)
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: code}); fresh.Code != code && r.Error == nil {
		t.Fatal("the spent code still paired")
	}
	if r := actortest.Ask[*messages.OwnerReply](t, b.sys, b.pid, &messages.PairExtension{Code: fresh.Code}); r.Error != nil {
		t.Fatalf("the new code: %+v", r.Error)
	}
	e.expect(messages.ExtPairedType)
}

func TestACodeAndItsConnectionLiveFiveMinutes(t *testing.T) {
	b := start(t)
	e := b.open(t, idA)
	e.hello(true)
	code := e.expect(messages.ExtCodeType).Code
	b.clock.Advance(messages.ExtPingEvery)
	p := e.expect(messages.ExtPingType) // pings keep the worker awake while the owner types
	e.msg(&messages.ExtPong{Type: "pong", Seq: p.Seq})
	b.clock.Advance(messages.ExtCodeLife)
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
	a.msg(&messages.ExtForget{Type: "forget"})
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

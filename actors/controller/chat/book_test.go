package chat_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller/chat"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
)

var at = time.Unix(100, 0)

func TestABoundConversationAnswersOnTelegramOnlyWhilePaired(t *testing.T) {
	b := chat.New(nil, nil)
	if _, e := b.Bind("c1", true, at); e == nil || e.Code != messages.CodeNotPaired {
		t.Fatalf("binding without a pairing: %v", e)
	}
	b.Pair(&messages.PairTelegram{User: 7, Chat: 7, Name: "ada"}, at)
	if _, e := b.Bind("c1", true, at); e != nil {
		t.Fatal(e)
	}
	if b.Surface("c1") != messages.SurfaceTelegram || b.Surface("c2") != "" {
		t.Fatalf("surfaces: c1 %q, c2 %q", b.Surface("c1"), b.Surface("c2"))
	}
	ops, unbound := b.Unpair()
	if len(ops) != 2 || len(unbound) != 1 || unbound[0] != "c1" {
		t.Fatalf("unpair: %d ops, unbound %v", len(ops), unbound)
	}
	if b.Surface("c1") != "" || b.Paired() {
		t.Fatal("after unpairing c1 still answers on Telegram")
	}
}

func TestTheBookStartsFromTheLedger(t *testing.T) {
	b := chat.New(&ledger.Telegram{User: 5, Chat: 5, Name: "bo", PairedAt: at},
		[]ledger.Bound{{Conversation: "b", At: at}, {Conversation: "a", At: at}})
	v := b.View()
	if !v.Paired || v.User != 5 || len(v.Bound) != 2 || v.Bound[0] != "a" {
		t.Fatalf("view %+v", v)
	}
}

func TestPairingsThatNameNoPrivateChatAreRefused(t *testing.T) {
	for name, m := range map[string]*messages.PairTelegram{
		"no user":    {Chat: 5},
		"group chat": {User: 5, Chat: -100123},
		"other chat": {User: 5, Chat: 6},
	} {
		if e := chat.CheckPair(m); e == nil || e.Code != messages.CodeBadInput {
			t.Errorf("%s: %v", name, e)
		}
	}
	if e := chat.CheckPair(&messages.PairTelegram{User: 5, Chat: 5}); e != nil {
		t.Errorf("a private chat: %v", e)
	}
}

func TestBindingChecksTheConversation(t *testing.T) {
	b := chat.New(&ledger.Telegram{User: 5, Chat: 5}, nil)
	if _, e := b.Bind("../x", true, at); e == nil || e.Code != messages.CodeBadInput {
		t.Fatalf("bad id: %v", e)
	}
}

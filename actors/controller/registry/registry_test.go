package registry_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/controller/registry"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

func TestAddResolveAndRemoveAnAgent(t *testing.T) {
	r, _ := registry.New(nil)
	now := time.Unix(100, 0)
	ag, token, e := r.New(&messages.AddAgent{Name: "ada"}, now)
	if e != nil || ag.TokenHash != secret.Hash(token) || ag.Created != now {
		t.Fatalf("New: %+v %q %v", ag, token, e)
	}
	if _, ok := r.ByToken(ag.TokenHash); ok {
		t.Fatal("an agent resolves before it is put (before the ledger has it)")
	}
	r.Put(ag)
	call := &messages.ToolCall{TokenHash: secret.Hash(token), Tool: messages.ToolAct}
	if got, e := r.Call(call); e != nil || got.Name != "ada" {
		t.Fatalf("Call = %+v %v", got, e)
	}
	if _, _, e := r.New(&messages.AddAgent{Name: "ada"}, now); e == nil || e.Code != messages.CodeAgentExists {
		t.Fatalf("adding ada twice: %v", e)
	}
	if _, e := r.Remove("ada"); e != nil {
		t.Fatal(e)
	}
	if _, e := r.Call(call); e == nil || e.Code != messages.CodeUnauthorized {
		t.Fatalf("a removed agent's token: %v", e)
	}
	if _, e := r.Remove("ada"); e == nil || e.Code != messages.CodeUnknownAgent {
		t.Fatalf("removing ada twice: %v", e)
	}
	again, _, _ := r.New(&messages.AddAgent{Name: "ada"}, now)
	if again.ID == "" || again.ID == ag.ID {
		t.Fatalf("ada added again got ID %q, the first had %q: IDs are never reused", again.ID, ag.ID)
	}
}

func TestBadNamesAndMissingGrantsAreRefused(t *testing.T) {
	r, given := registry.New([]ledger.Agent{{Name: "ro", TokenHash: "h", Grants: []string{messages.ToolStatus}}})
	if len(given) != 1 || given[0].ID == "" {
		t.Fatalf("an agent stored without an ID was given none: %+v", given)
	}
	if _, _, e := r.New(&messages.AddAgent{Name: "Bad Name"}, time.Now()); e == nil || e.Code != messages.CodeBadInput {
		t.Fatalf("a bad name: %v", e)
	}
	if _, e := r.Call(&messages.ToolCall{TokenHash: "h", Tool: messages.ToolAct}); e == nil || e.Code != messages.CodeNotGranted {
		t.Fatalf("a tool without the grant: %v", e)
	}
	if list := r.List(); len(list) != 1 || list[0].Name != "ro" {
		t.Fatalf("List = %+v", list)
	}
}

package controller

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

var agentPattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

func (a *Actor) putAgent(ag *ledger.Agent) {
	a.agents[ag.Name] = ag
	a.byHash[ag.TokenHash] = ag.Name
}

// addAgent registers an agent with the browser.* grant and answers its
// token, which is never stored in plain form.
func (a *Actor) addAgent(ctx actor.Context, m *messages.AddAgent) {
	if !agentPattern.MatchString(m.Name) {
		ctx.Respond(fail("bad_input", fmt.Sprintf("The agent name %q is not valid; use 1 to 32 lowercase letters, digits, dashes or underscores, starting with a letter.", m.Name)))
		return
	}
	if a.agents[m.Name] != nil {
		ctx.Respond(fail("agent_exists", fmt.Sprintf("Agent %s already exists; remove it first (`buddi agent remove %s`) to issue a new token.", m.Name, m.Name)))
		return
	}
	token := secret.New("ba_")
	ag := &ledger.Agent{Name: m.Name, TokenHash: secret.Hash(token), Grants: []string{"browser.*"},
		AutoApprove: m.AutoApprove, Created: a.cfg.Now()}
	sender := ctx.Sender()
	f := ctx.RequestFuture(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{
		ledger.Put(ledger.AgentKey(m.Name), ag)}}, ledgerTimeout)
	a.after(ctx, f, sender, func(res any, err error) {
		if err = ledger.Written(res, err); err != nil {
			reply(ctx, sender, fail("store_failed", "The agent could not be saved: "+err.Error()))
			return
		}
		a.putAgent(ag)
		reply(ctx, sender, &messages.OwnerReply{Result: map[string]any{"name": ag.Name,
			"token": token, "grants": ag.Grants, "autoApprove": ag.AutoApprove}})
	})
}

func (a *Actor) removeAgent(ctx actor.Context, m *messages.RemoveAgent) {
	ag := a.agents[m.Name]
	if ag == nil {
		ctx.Respond(fail("unknown_agent", fmt.Sprintf("There is no agent %q; `buddi agent list` shows them.", m.Name)))
		return
	}
	delete(a.agents, m.Name)
	delete(a.byHash, ag.TokenHash)
	sender := ctx.Sender()
	f := ctx.RequestFuture(a.ledger, &messages.LedgerWrite{Ops: []messages.LedgerOp{
		ledger.Delete(ledger.AgentKey(m.Name))}}, ledgerTimeout)
	a.after(ctx, f, sender, func(res any, err error) {
		if err = ledger.Written(res, err); err != nil {
			reply(ctx, sender, fail("store_failed", "The removal could not be saved: "+err.Error()))
			return
		}
		reply(ctx, sender, &messages.OwnerReply{Result: map[string]any{"removed": m.Name}})
	})
}

func (a *Actor) agentList() []map[string]any {
	out := []map[string]any{}
	for _, ag := range a.agents {
		out = append(out, map[string]any{"name": ag.Name, "grants": ag.Grants,
			"autoApprove": ag.AutoApprove, "created": ag.Created})
	}
	sort.Slice(out, func(i, j int) bool { return out[i]["name"].(string) < out[j]["name"].(string) })
	return out
}

func decodeTask(raw []byte, in *messages.TaskInput) *messages.Error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if len(raw) == 0 || dec.Decode(in) != nil {
		return &messages.Error{Code: "bad_input", Message: "browser.task needs {\"description\": \"…\"} with optional steps and minutes."}
	}
	if in.Description == "" || len(in.Description) > 2000 {
		return &messages.Error{Code: "bad_input", Message: "browser.task needs a description of 1 to 2000 characters."}
	}
	return nil
}

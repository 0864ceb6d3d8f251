package session

import (
	"cmp"
	"slices"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Secrets is the owner's own secrets as a session reads them: names and
// origins for secret_list, one secret's origins and value for the one
// driver call of a secret_fill, and every value, to mask in reads.
type Secrets interface {
	List() ([]messages.SecretInfo, error)
	Secret(name string) (origins []string, value string, err error)
	Values() []string
}

// listSecrets answers secret_list: names and origins, never a value.
func (a *Actor) listSecrets(ctx actor.Context) {
	var list []messages.SecretInfo
	if a.cfg.Secrets != nil {
		var err error
		if list, err = a.cfg.Secrets.List(); err != nil {
			ctx.Respond(messages.FailWith(refusal(err)))
			return
		}
	}
	if list == nil {
		list = []messages.SecretInfo{}
	}
	ctx.Respond(&messages.ToolResult{Result: &messages.SecretList{Secrets: list, Text: messages.SecretsText(len(list))}})
}

// fillSecret gives a secret_fill its secret, after checking that the page
// the session last saw is of an origin it is for (the driver reads the
// field's own origin again in the call that types).
func (a *Actor) fillSecret(in *messages.ActInput, act *drivers.Action) *messages.Error {
	if a.cfg.Secrets == nil {
		return messages.Errorf(messages.CodeUnknownSecret, "The owner keeps no secrets for agents; ask them to take over and sign in themselves.")
	}
	origins, value, err := a.cfg.Secrets.Secret(in.Secret)
	if err != nil {
		return refusal(err)
	}
	if here := messages.Origin(a.url); !slices.Contains(origins, here) {
		field := "you named"
		if act.Target != nil {
			field = act.Target.Ref
		}
		return messages.SecretOrigin(field, cmp.Or(here, "(no page)"), origins)
	}
	act.Value, act.Origins = value, origins
	return nil
}

// ownedValues are the owner's secrets, masked in every reading of a page
// (egress.FenceMasked).
func (a *Actor) ownedValues() []string {
	if a.cfg.Secrets == nil {
		return nil
	}
	return a.cfg.Secrets.Values()
}

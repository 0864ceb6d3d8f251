package session

import (
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// Each kind of semantic target binds the one element of the latest
// observation it names exactly (a link by its name, a field by its label
// or placeholder, anything by its text, in the frame it gives), hands the
// driver the observation's tree, and names more than one as
// ambiguous_target and none as stale_ref.
func TestEachSemanticTargetBindsOneElementOrSaysWhyNot(t *testing.T) {
	e := &evidence{}
	e.set(1, &drivers.Observation{Tree: "the tree", Refs: map[string]drivers.Element{
		"e1": {Ref: "e1", Role: "link", Name: "Next chapter", Text: "Next chapter"},
		"e2": {Ref: "e2", Role: "button", Name: "Next chapter", Text: "Next chapter"},
		"e3": {Ref: "e3", Role: "textbox", Name: "Email", Label: "Email", Placeholder: "you@example.com"},
		"e4": {Ref: "e4", Role: "button", Name: "Send", Text: "Send"},
		"e5": {Ref: "e5", Role: "button", Name: "Send", Text: "Send", Frame: 1},
		"e6": {Ref: "e6", Role: "link", Name: "Help", Text: "Help"},
		"e7": {Ref: "e7", Role: "link", Name: "Help", Text: "Help"},
	}})
	for name, c := range map[string]struct {
		want *messages.TargetRef
		ref  string
		code messages.Code
	}{
		"link by name":           {want: &messages.TargetRef{By: messages.ByLink, Name: "Next chapter"}, ref: "e1"},
		"role and name":          {want: &messages.TargetRef{By: messages.ByRole, Role: "button", Name: "Next chapter"}, ref: "e2"},
		"label":                  {want: &messages.TargetRef{By: messages.ByLabel, Name: "Email"}, ref: "e3"},
		"placeholder":            {want: &messages.TargetRef{By: messages.ByPlaceholder, Name: "you@example.com"}, ref: "e3"},
		"text in the main frame": {want: &messages.TargetRef{By: messages.ByText, Name: "Send"}, ref: "e4"},
		"text in a frame":        {want: &messages.TargetRef{By: messages.ByText, Name: "Send", Frame: 1}, ref: "e5"},
		"text of two":            {want: &messages.TargetRef{By: messages.ByText, Name: "Next chapter"}, code: messages.CodeAmbiguous},
		"two links":              {want: &messages.TargetRef{By: messages.ByLink, Name: "Help"}, code: messages.CodeAmbiguous},
		"a part of a name":       {want: &messages.TargetRef{By: messages.ByLink, Name: "Next"}, code: messages.CodeStaleRef},
		"placeholder as a label": {want: &messages.TargetRef{By: messages.ByLabel, Name: "you@example.com"}, code: messages.CodeStaleRef},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := e.check(&messages.ActInput{Action: "click", Observation: e.id, Target: c.want})
			if c.code != "" {
				if err == nil || err.Code != c.code {
					t.Fatalf("bound %+v, error %+v; want %s", got, err, c.code)
				}
				return
			}
			if err != nil || got.Ref != c.ref || got.Tree != "the tree" {
				t.Fatalf("bound %+v, error %+v; want %s with the observation's tree", got, err, c.ref)
			}
		})
	}
}

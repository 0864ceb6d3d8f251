package mcp

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/buddi-dev/buddi/messages"
)

// actSchema infers browser.act's input schema. messages.ActInput refers to
// itself through Steps, which schema inference refuses as a cycle, so the
// steps array is given explicitly: items are ActInput without "steps" (a
// script does not nest).
func actSchema() (*jsonschema.Schema, error) {
	stepsType := reflect.TypeFor[[]*messages.ActInput]()
	step, err := jsonschema.For[messages.ActInput](&jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{stepsType: {Type: "array"}},
	})
	if err != nil {
		return nil, err
	}
	delete(step.Properties, "steps")
	step.PropertyOrder = slices.DeleteFunc(step.PropertyOrder, func(p string) bool { return p == "steps" })
	fromTable(step, messages.ActionNames(messages.Scriptables))
	limit := messages.MaxScriptSteps
	steps := &jsonschema.Schema{Type: "array", Items: step, MaxItems: &limit,
		Description: "script: up to " + strconv.Itoa(limit) + " steps of " + messages.Words(messages.ActionNames(messages.Scriptables), "or")}
	act, err := jsonschema.For[actArgs](&jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{stepsType: steps},
	})
	if err != nil {
		return nil, err
	}
	fromTable(act, messages.ActionNames(nil))
	return act, nil
}

// fromTable fills what the action table says into an act schema: the
// actions it may name, and which of them need an observation.
func fromTable(s *jsonschema.Schema, names []string) {
	if a := s.Properties["action"]; a != nil {
		a.Description = "one of " + strings.Join(names, ", ")
	}
	if o := s.Properties["observation"]; o != nil {
		o.Description = "id of the latest observation; required by " + messages.Words(messages.ActionNames(messages.Mutators), "and")
	}
}

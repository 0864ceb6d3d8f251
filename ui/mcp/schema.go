package mcp

import (
	"reflect"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/buddi-dev/buddi/messages"
)

// maxSteps is the most steps a script may hold.
const maxSteps = 10

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
	limit := maxSteps
	steps := &jsonschema.Schema{Type: "array", Items: step, MaxItems: &limit}
	return jsonschema.For[actArgs](&jsonschema.ForOptions{
		TypeSchemas: map[reflect.Type]*jsonschema.Schema{stepsType: steps},
	})
}

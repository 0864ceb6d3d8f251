package messages

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Limits on tool input.
const (
	MaxInputBytes  = 64 << 10
	MaxValueChars  = 10000
	MaxScriptSteps = 10
	MaxWaitMs      = 15000
	DefaultWaitMs  = 5000
	MaxDOMChars    = 8000
)

// DecodeAct parses and validates browser.act input. A failure is an *Error
// with code bad_input and one sentence.
func DecodeAct(raw []byte) (*ActInput, *Error) {
	if len(raw) > MaxInputBytes {
		return nil, badInput("the input is larger than %d KB; send a smaller value", MaxInputBytes>>10)
	}
	var in ActInput
	var err error
	if !decodeActFast(raw, &in) {
		in = ActInput{}
		err = decodeStrict(raw, &in)
	}
	if errors.Is(err, errTrailing) {
		return nil, badInput("the input has data after its JSON object; send exactly one object")
	}
	if err != nil {
		return nil, InputRefused(ToolAct, err)
	}
	if e := ValidateAct(&in, false); e != nil {
		return nil, e
	}
	return &in, nil
}

// DecodeStrict reads raw as one JSON value into v: no unknown fields and
// nothing after it. The wire packages decode with it too.
func DecodeStrict(raw []byte, v any) error { return decodeStrict(raw, v) }

// errTrailing is decodeStrict's complaint about data after the object.
var errTrailing = errors.New("data after the JSON value")

// decodeStrict decodes exactly one JSON value into v, refusing unknown fields.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errTrailing
	}
	return nil
}

// ValidateAct checks one action's fields. inScript is true for script steps.
func ValidateAct(in *ActInput, inScript bool) *Error {
	if e := checkActText(in); e != nil {
		return e
	}
	spec, ok := ActionOf(in.Action)
	if !ok {
		return badInput("%q is not an action; use one of %s", Clip(in.Action, 60), actionList)
	}
	if inScript && !spec.Scriptable {
		return badInput("a script may hold only %s, not %s", scriptList, in.Action)
	}
	if e := checkTakes(in, spec); e != nil {
		return e
	}
	if spec.Mutating && in.Observation == "" {
		return badInput("%s needs \"observation\": the id of your latest observation; call observe first", in.Action)
	}
	if e := checkTarget(in.Target); e != nil {
		return e
	}
	if in.Target.Point() && in.Action != "click" {
		return badInput("only click takes a pixel target; %s needs a ref from your latest observation", in.Action)
	}
	if e := checkShared(in, spec, inScript); e != nil {
		return e
	}
	if err := spec.check(in); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return e
		}
		return badInput("%s", err.Error())
	}
	return nil
}

// checkShared checks the fields any action may carry: thenObserve and
// the value's length.
func checkShared(in *ActInput, spec *ActionSpec, inScript bool) *Error {
	if in.ThenObserve && (inScript || !spec.ObservesAfter()) {
		return badInput("thenObserve goes with one navigate, click or other action that changes the page, outside a script, not with %s; call observe on its own instead", in.Action)
	}
	if len(in.Value) > MaxValueChars {
		return badInput("the value is longer than %d characters", MaxValueChars)
	}
	return nil
}

func badInput(format string, args ...any) *Error {
	return &Error{Code: CodeBadInput, Message: fmt.Sprintf(format, args...)}
}

// misplaced names fields agents put where browser.act has none, with
// where their value goes instead.
var misplaced = map[string]string{
	"ref":           `name the element as "target": {"ref": "e12"}, beside "observation": the id of your latest observation`,
	"element":       `name the element as "target": {"ref": "e12"}, beside "observation": the id of your latest observation`,
	"observationId": `send the observation's id as "observation"`,
	"conversation":  `the conversation goes beside "input", not in it`,
	"input":         `send the action's fields themselves, such as {"action":"observe"}`,
}

// InputRefused is the bad_input refusal of input that did not decode as
// tool's (err from DecodeStrict): what was wrong with it, and what to send.
func InputRefused(tool string, err error) *Error {
	hint := inputHint(err)
	switch tool {
	case ToolTask:
		hint = `send an object such as {"description":"what you want to do, in a sentence or two"}`
	case ToolStatus:
		hint = `send an empty object, or one with only "conversation"`
	}
	return badInput("the input is not valid JSON for %s (%s); %s", tool, jsonProblem(err), hint)
}

// inputHint is what to send instead of input that did not decode.
func inputHint(err error) string {
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if hint, ok := misplaced[strings.Trim(name, `"`)]; ok {
			return hint
		}
	}
	return `send an object such as {"action":"observe"}`
}

// jsonProblem says in a few words why input did not decode.
func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error at byte %d", se.Offset)
	case errors.As(err, &te) && jsonField(te.Field) != "":
		return fmt.Sprintf("field %s should be %s, not %s", jsonField(te.Field), jsonKind(te.Type), te.Value)
	case errors.As(err, &te):
		return fmt.Sprintf("it should be %s, not %s", jsonKind(te.Type), te.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	return "it could not be read"
}

// jsonKind names the JSON a value of Go type t is read from, as a sender
// writes it.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "another value"
}

// jsonField is the path of a field as the sender wrote it: encoding/json
// names a field of an embedded struct through the struct's Go name too
// (ActInput.observation), which no sender wrote.
func jsonField(path string) string {
	parts := strings.Split(path, ".")
	kept := parts[:0]
	for _, p := range parts {
		if p != "" && (p[0] < 'A' || p[0] > 'Z') {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ".")
}

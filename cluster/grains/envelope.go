package grains

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"google.golang.org/protobuf/types/known/wrapperspb"
)

// encode wraps a registered message for the wire: its name, a newline,
// its JSON.
func (r *Registry) encode(msg any) (*wrapperspb.BytesValue, error) {
	if err := r.check(msg); err != nil {
		return nil, err
	}
	name, _ := r.name(msg)
	body, err := json.Marshal(msg)
	if err != nil {
		return nil, fmt.Errorf("grains: encoding %s: %w", name, err)
	}
	out := make([]byte, 0, len(name)+1+len(body)+96)
	out = append(append(out, name...), '\n')
	if key := r.sealKey(); key != nil {
		out = append(append(out, seal(key, []byte(name), body, time.Now())...), '\n')
	}
	return wrapperspb.Bytes(append(out, body...)), nil
}

// decode reads an envelope back into a new value of its registered type.
func (r *Registry) decode(env *wrapperspb.BytesValue) (any, error) {
	name, body, ok := bytes.Cut(env.GetValue(), []byte{'\n'})
	if !ok {
		return nil, &MalformedError{Reason: "it has no type name line"}
	}
	msg, ok := r.fresh(string(name))
	if !ok {
		return nil, &UnknownTypeError{Type: string(name)}
	}
	if key := r.sealKey(); key != nil {
		var err error
		if body, err = r.unsealOnce(key, name, body, time.Now()); err != nil {
			return nil, err
		}
	}
	if err := json.Unmarshal(body, msg); err != nil {
		return nil, &MalformedError{Reason: fmt.Sprintf("its %s body does not decode: %v", name, err)}
	}
	return msg, nil
}

// check refuses a nil message or one of a type that is not registered.
func (r *Registry) check(msg any) error {
	if msg == nil || reflect.ValueOf(msg).Kind() == reflect.Pointer && reflect.ValueOf(msg).IsNil() {
		return &UnknownTypeError{Type: "nil"}
	}
	if _, ok := r.name(msg); !ok {
		return &UnknownTypeError{Type: reflect.TypeOf(msg).String()}
	}
	return nil
}

package grains

import (
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
)

// Registry names the message types that may cross members: each name maps
// to one pointer-to-struct type and back. It is safe for concurrent use;
// register every type before the first Request.
type Registry struct {
	mu     sync.RWMutex
	key    []byte       // the cluster's key once sealed (Seal); nil: not sealed
	spent  *nonces      // the nonces taken, once sealed
	log    *slog.Logger // hears of replays refused, once sealed
	byName map[string]reflect.Type
	byType map[reflect.Type]string
}

// NewRegistry returns a registry that knows only *Failure.
func NewRegistry() *Registry {
	r := &Registry{byName: map[string]reflect.Type{}, byType: map[reflect.Type]string{}}
	if err := Register[Failure](r, failureName); err != nil {
		panic(err) // a constant name: cannot fail
	}
	return r
}

// Register adds *T under name. A name or type registered twice, an empty
// name or one with a newline, or a T that is not a struct is an error.
func Register[T any](r *Registry, name string) error {
	t := reflect.TypeFor[*T]()
	if t.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("grains: %s is not a struct; register message structs only", t.Elem())
	}
	if name == "" || strings.ContainsAny(name, "\n") {
		return fmt.Errorf("grains: the message name %q is empty or has a newline; give a one-line name", name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.byName[name]; ok {
		return fmt.Errorf("grains: the name %q already names %s; give %s another", name, old, t)
	}
	if old, ok := r.byType[t]; ok {
		return fmt.Errorf("grains: %s is already registered as %q; register it once", t, old)
	}
	r.byName[name] = t
	r.byType[t] = name
	return nil
}

func (r *Registry) name(msg any) (string, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	n, ok := r.byType[reflect.TypeOf(msg)]
	return n, ok
}

// fresh returns a new *T for a registered name.
func (r *Registry) fresh(name string) (any, bool) {
	r.mu.RLock()
	t, ok := r.byName[name]
	r.mu.RUnlock()
	if !ok {
		return nil, false
	}
	return reflect.New(t.Elem()).Interface(), true
}

package linux

import (
	"context"

	"github.com/godbus/dbus/v5"
)

// cacheItem is one object of an app's AT-SPI cache
// (org.a11y.atspi.Cache.GetItems, signature a((so)(so)(so)iiassusau)).
type cacheItem struct {
	Self     ref
	App      ref
	Parent   ref
	Index    int32
	Children int32
	Ifaces   []string
	Name     string
	Role     uint32
	Desc     string
	States   []uint32
}

// cached is what the cache says of one object.
type cached struct {
	role   uint32
	name   string
	state  states
	ifaces map[string]bool
}

// readCache fetches an app's whole cache in one call, so that a tree walk
// reads role, name, state and interfaces of each element without four calls
// each. It returns nil when the app has no cache of this shape; the walk
// then asks each element.
func (b *bus) readCache(ctx context.Context, app string) map[dbus.ObjectPath]cached {
	var items []cacheItem
	if err := b.call(ctx, ref{app, cachePath}, ifaceCache+".GetItems", []any{&items}); err != nil {
		return nil
	}
	out := make(map[dbus.ObjectPath]cached, len(items))
	for _, it := range items {
		ifaces := make(map[string]bool, len(it.Ifaces))
		for _, s := range it.Ifaces {
			ifaces[s] = true
		}
		out[it.Self.Path] = cached{role: it.Role, name: it.Name, state: statesOf(it.States), ifaces: ifaces}
	}
	return out
}

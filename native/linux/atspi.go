package linux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"

	"github.com/buddi-dev/buddi/native/protocol"
)

// AT-SPI names.
const (
	ifaceAccessible   = "org.a11y.atspi.Accessible"
	ifaceComponent    = "org.a11y.atspi.Component"
	ifaceAction       = "org.a11y.atspi.Action"
	ifaceText         = "org.a11y.atspi.Text"
	ifaceEditableText = "org.a11y.atspi.EditableText"
	ifaceCache        = "org.a11y.atspi.Cache"
	registryName      = "org.a11y.atspi.Registry"
	rootPath          = dbus.ObjectPath("/org/a11y/atspi/accessible/root")
	cachePath         = dbus.ObjectPath("/org/a11y/atspi/cache")
	coordsWindow      = uint32(1) // ATSPI_COORD_TYPE_WINDOW
)

// ref names one accessible object: the app's bus connection and the path.
type ref struct {
	Name string
	Path dbus.ObjectPath
}

// bus is a connection to the accessibility bus.
type bus struct {
	conn *dbus.Conn
}

// dialBus connects to the accessibility bus: AT_SPI_BUS_ADDRESS when set,
// else the address the session bus's org.a11y.Bus gives. It never starts a
// session bus of its own (godbus would, through dbus-launch).
func dialBus(ctx context.Context) (*bus, error) {
	addr := os.Getenv("AT_SPI_BUS_ADDRESS")
	if addr == "" {
		sess, err := sessionBus(ctx)
		if err != nil {
			return nil, noBus(err)
		}
		err = sess.Object("org.a11y.Bus", "/org/a11y/bus").CallWithContext(ctx, "org.a11y.Bus.GetAddress", 0).Store(&addr)
		_ = sess.Close()
		if err != nil {
			return nil, noBus(err)
		}
	}
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return nil, noBus(err)
	}
	return &bus{conn: conn}, nil
}

// sessionBus connects to the desktop session's bus: the one
// DBUS_SESSION_BUS_ADDRESS names, else $XDG_RUNTIME_DIR/bus.
func sessionBus(ctx context.Context) (*dbus.Conn, error) {
	addr := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
	if addr == "" {
		dir := os.Getenv("XDG_RUNTIME_DIR")
		if dir == "" {
			return nil, errors.New("no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are empty")
		}
		if _, err := os.Stat(filepath.Join(dir, "bus")); err != nil {
			return nil, fmt.Errorf("no session bus: %w", err)
		}
		addr = "unix:path=" + filepath.Join(dir, "bus")
	}
	return dbus.Connect(addr, dbus.WithContext(ctx))
}

func noBus(err error) error {
	return protocol.Errorf(protocol.CodeNoAccessibility, "The accessibility bus (AT-SPI) cannot be reached; install at-spi2-core and start buddi inside the desktop session.").WithDetail(err)
}

func (b *bus) close() { _ = b.conn.Close() }

// call calls method on r and stores the reply in out.
func (b *bus) call(ctx context.Context, r ref, method string, out []any, args ...any) error {
	c := b.conn.Object(r.Name, r.Path).CallWithContext(ctx, method, 0, args...)
	if c.Err != nil {
		return callError{method, c.Err}
	}
	if len(out) == 0 {
		return nil
	}
	return c.Store(out...)
}

// callError names the method that failed and the D-Bus error's name, which
// godbus leaves out of its text when the error carries no message.
type callError struct {
	method string
	err    error
}

func (e callError) Error() string {
	var de dbus.Error
	if errors.As(e.err, &de) {
		return fmt.Sprintf("%s: %s %v", e.method, de.Name, de.Body)
	}
	return e.method + ": " + e.err.Error()
}

func (e callError) Unwrap() error { return e.err }

// property reads one property of r.
func (b *bus) property(ctx context.Context, r ref, iface, name string) (dbus.Variant, error) {
	var v dbus.Variant
	err := b.call(ctx, r, "org.freedesktop.DBus.Properties.Get", []any{&v}, iface, name)
	return v, err
}

func (b *bus) children(ctx context.Context, r ref) ([]ref, error) {
	var kids []ref
	err := b.call(ctx, r, ifaceAccessible+".GetChildren", []any{&kids})
	return kids, err
}

func (b *bus) role(ctx context.Context, r ref) (uint32, error) {
	var role uint32
	err := b.call(ctx, r, ifaceAccessible+".GetRole", []any{&role})
	return role, err
}

func (b *bus) state(ctx context.Context, r ref) (states, error) {
	var s []uint32
	if err := b.call(ctx, r, ifaceAccessible+".GetState", []any{&s}); err != nil {
		return 0, err
	}
	return statesOf(s), nil
}

func (b *bus) name(ctx context.Context, r ref) (string, error) {
	v, err := b.property(ctx, r, ifaceAccessible, "Name")
	if err != nil {
		return "", err
	}
	s, _ := v.Value().(string)
	return s, nil
}

func (b *bus) parent(ctx context.Context, r ref) (ref, error) {
	v, err := b.property(ctx, r, ifaceAccessible, "Parent")
	if err != nil {
		return ref{}, err
	}
	var p ref
	if err := dbus.Store([]any{v.Value()}, &p); err != nil {
		return ref{}, err
	}
	return p, nil
}

func (b *bus) interfaces(ctx context.Context, r ref) (map[string]bool, error) {
	var list []string
	if err := b.call(ctx, r, ifaceAccessible+".GetInterfaces", []any{&list}); err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(list))
	for _, s := range list {
		out[s] = true
	}
	return out, nil
}

// extents is r's box in window coordinates.
func (b *bus) extents(ctx context.Context, r ref) (protocol.Rect, error) {
	var box struct{ X, Y, W, H int32 }
	if err := b.call(ctx, r, ifaceComponent+".GetExtents", []any{&box}, coordsWindow); err != nil {
		return protocol.Rect{}, err
	}
	return protocol.Rect{X: int(box.X), Y: int(box.Y), W: int(box.W), H: int(box.H)}, nil
}

// charCount is the length of r's text.
func (b *bus) charCount(ctx context.Context, r ref) (int, error) {
	v, err := b.property(ctx, r, ifaceText, "CharacterCount")
	if err != nil {
		return 0, err
	}
	n, ok := v.Value().(int32)
	if !ok {
		return 0, errors.New("CharacterCount is not an int32")
	}
	return int(n), nil
}

// text reads at most limit characters of r's text.
func (b *bus) text(ctx context.Context, r ref, limit int) (string, error) {
	n, err := b.charCount(ctx, r)
	if err != nil {
		return "", err
	}
	var s string
	err = b.call(ctx, r, ifaceText+".GetText", []any{&s}, int32(0), int32(min(n, limit)))
	return s, err
}

// pid is the process behind a bus connection.
func (b *bus) pid(ctx context.Context, name string) (int, error) {
	var pid uint32
	err := b.conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.GetConnectionUnixProcessID", 0, name).Store(&pid)
	return int(pid), err
}

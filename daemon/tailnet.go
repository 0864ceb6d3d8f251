package daemon

import (
	"context"
	"fmt"
	"net"

	"github.com/buddi-dev/buddi/messages"
)

// node is buddi's node on the tailnet, as the daemon wires it: the
// surface's ui.Tailnet, its listener, and closing it. Built with
// -tags tailnet it is Tailscale's tsnet (tailnet_on.go); without, asking
// for it is refused with a sentence (tailnet_off.go).
type node interface {
	WhoIs(ctx context.Context, remoteAddr string) (messages.TailnetIdentity, error)
	Host(host string) bool
	URL() string
	OwnerLogins() []string
	OwnerAllowed(login string) bool
	AddOwner(login string) error
	RemoveOwner(login string) error
	OnChange(f func())
	Listen() (net.Listener, error)
	Up(ctx context.Context) error
	Close() error
}

// tailnetURL is the dashboard's address on the tailnet: "" when off or
// not up yet.
func (d *Daemon) tailnetURL() string {
	if d.node == nil {
		return ""
	}
	return d.node.URL()
}

// TailnetUp waits until the tailnet node has joined and says its
// dashboard address; "" when buddi is not on a tailnet.
func (d *Daemon) TailnetUp(ctx context.Context) (string, error) {
	if d.node == nil {
		return "", nil
	}
	if err := d.node.Up(ctx); err != nil {
		return "", err
	}
	return d.node.URL(), nil
}

// tailnet starts buddi's tailnet node when the settings ask for it.
func (w *wiring) tailnet() error {
	if !w.o.Config.Tailnet {
		return nil
	}
	n, err := startNode(w)
	if err != nil {
		return err
	}
	w.d.node = n
	// BUDDI_TAILNET_OWNERS seeds the owner's list; the list keeps what
	// was added since, and a login removed on the dashboard comes back
	// only with the next start that names it.
	for _, login := range w.o.Config.TailnetOwners {
		if err := n.AddOwner(login); err != nil {
			return fmt.Errorf("daemon: BUDDI_TAILNET_OWNERS: %w", err)
		}
	}
	return nil
}

//go:build tailnet

package daemon

import (
	"github.com/buddi-dev/buddi/tailnet"
)

// TailnetLinked says whether this binary links Tailscale (-tags tailnet).
const TailnetLinked = true

// onTailnet is the tsnet node with its owner's list, as node.
type onTailnet struct{ *tailnet.Node }

func (n onTailnet) OwnerLogins() []string          { return n.Owners().List() }
func (n onTailnet) OwnerAllowed(login string) bool { return n.Owners().Allowed(login) }
func (n onTailnet) AddOwner(login string) error    { return n.Owners().Add(login) }
func (n onTailnet) RemoveOwner(login string) error { return n.Owners().Remove(login) }

func startNode(w *wiring) (node, error) {
	c := w.o.Config
	n, err := tailnet.Start(tailnet.Config{DataDir: c.DataDir, Hostname: c.TailnetHostname, AuthKey: c.TailnetAuthKey,
		ControlURL: c.TailnetControl, Log: w.o.Log, Say: w.say, Ephemeral: w.o.TailnetEphemeral})
	if err != nil {
		return nil, err
	}
	return onTailnet{n}, nil
}

package netns

import (
	"errors"
	"net"
	"os"
)

// ErrUnsupported is returned where network namespaces cannot be made:
// outside Linux, or without root (CAP_SYS_ADMIN).
var ErrUnsupported = errors.New("netns: network namespaces need Linux and root")

// Namespace is a network namespace with loopback up and one listener.
type Namespace struct {
	file *os.File // keeps the namespace alive; Path names it
	ln   net.Listener
}

// Listener is the TCP listener on 127.0.0.1 inside the namespace, on a
// port the system picked. Connections to it come from inside; accepting and
// serving them happens in the host's namespace.
func (n *Namespace) Listener() net.Listener { return n.ln }

// Close releases buddi's hold on the namespace. It does not close the
// listener. Safe to call more than once.
func (n *Namespace) Close() error {
	if err := n.file.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		return err
	}
	return nil
}

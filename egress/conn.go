package egress

import (
	"net"
	"sync"
)

// trackedConn is one end of a relayed connection. It records activity for
// the idle watchdog, and lets the session know when go-socks5's relay
// goroutines have finished with it.
type trackedConn struct {
	net.Conn
	s      *session
	client bool
	cwOnce sync.Once
}

func (c *trackedConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 {
		c.s.touch()
	}
	return n, err
}

func (c *trackedConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if n > 0 {
		c.s.touch()
	}
	if c.client && err == nil && c.s.replyPending.CompareAndSwap(true, false) {
		c.s.relay.Add(2) // go-socks5 now starts one relay goroutine per direction
	}
	return n, err
}

// CloseWrite is the last thing each of go-socks5's relay goroutines does
// (on its destination) before it exits.
func (c *trackedConn) CloseWrite() error {
	var err error
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		err = cw.CloseWrite()
	}
	c.cwOnce.Do(c.s.relay.Done)
	return err
}

// Package slowlink is a TCP proxy whose downstream (server to client) is
// throttled to a given rate, as a slow phone link would be: the remote
// hand's tests, benchmarks and load harness put a dashboard tab behind it.
//
// Concurrency: one goroutine accepts; each connection has one goroutine
// per direction, ended when either side closes or the link closes.
package slowlink

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Link is a running proxy to one address.
type Link struct {
	ln   net.Listener
	to   string
	kbps atomic.Int64

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// New proxies a listener on 127.0.0.1 to addr, at kbps kilobits a second
// downstream (0: not throttled).
func New(addr string, kbps int) (*Link, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l := &Link{ln: ln, to: addr, conns: map[net.Conn]struct{}{}}
	l.kbps.Store(int64(kbps))
	go l.accept()
	return l, nil
}

// Addr is where clients connect.
func (l *Link) Addr() string { return l.ln.Addr().String() }

// SetKbps changes the downstream rate (0: not throttled).
func (l *Link) SetKbps(kbps int) { l.kbps.Store(int64(kbps)) }

// Close stops accepting and closes every connection.
func (l *Link) Close() error {
	err := l.ln.Close()
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.conns {
		_ = c.Close()
	}
	return err
}

func (l *Link) track(c net.Conn, on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if on {
		l.conns[c] = struct{}{}
	} else {
		delete(l.conns, c)
	}
}

func (l *Link) accept() {
	for {
		c, err := l.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", l.to)
		if err != nil {
			_ = c.Close()
			continue
		}
		l.track(c, true)
		l.track(s, true)
		go func() {
			_, _ = io.Copy(s, c)
			_ = s.Close()
			l.track(c, false)
		}()
		go l.down(c, s)
	}
}

// down copies server to client in 1 KB reads, each paid for at the rate.
func (l *Link) down(c, s net.Conn) {
	defer func() {
		_ = c.Close()
		l.track(s, false)
	}()
	buf := make([]byte, 1024)
	for {
		n, err := s.Read(buf)
		if n > 0 {
			if k := l.kbps.Load(); k > 0 {
				time.Sleep(time.Duration(n) * 8 * time.Second / time.Duration(k*1000))
			}
			if _, werr := c.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

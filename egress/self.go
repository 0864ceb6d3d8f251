package egress

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync/atomic"
)

// buddi's own addresses (its HTTP API, its egress guard) are never a page
// to open, not even when the owner wrote one as a preview origin: a
// navigation there is refused with a sentence that says so, and the guard
// connects nowhere near them.

// selfAddr is one of buddi's listening addresses. A listener on a loopback
// or unspecified address answers on every loopback address of its port.
type selfAddr struct {
	addr netip.Addr
	port uint16
}

func (s selfAddr) anyLoopback() bool {
	return s.addr.IsUnspecified() || s.addr.IsLoopback()
}

func parseSelf(hostport string) (selfAddr, error) {
	h, p, err := net.SplitHostPort(hostport)
	if err != nil {
		return selfAddr{}, fmt.Errorf("egress: buddi's own address %q is not host:port", hostport)
	}
	port, err := strconv.ParseUint(p, 10, 16)
	if err != nil || port == 0 {
		return selfAddr{}, fmt.Errorf("egress: buddi's own address %q has no port", hostport)
	}
	if h == "localhost" || h == "" {
		return selfAddr{addr: netip.IPv4Unspecified(), port: uint16(port)}, nil
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return selfAddr{}, fmt.Errorf("egress: buddi's own address %q is not an IP address", hostport)
	}
	return selfAddr{addr: a.Unmap(), port: uint16(port)}, nil
}

// selfSet holds buddi's own addresses; it only grows, copy on write.
type selfSet struct{ p atomic.Pointer[[]selfAddr] }

func (s *selfSet) add(a selfAddr) {
	for {
		old := s.p.Load()
		var next []selfAddr
		if old != nil {
			next = append(next, *old...)
		}
		next = append(next, a)
		if s.p.CompareAndSwap(old, &next) {
			return
		}
	}
}

func (s *selfSet) list() []selfAddr {
	if p := s.p.Load(); p != nil {
		return *p
	}
	return nil
}

// hostIs reports whether h at port is one of buddi's own listeners.
func (s *selfSet) hostIs(h host, port uint16) bool {
	for _, a := range s.list() {
		if a.port != port {
			continue
		}
		switch {
		case h.isIP() && h.addr.Unmap() == a.addr:
			return true
		case a.anyLoopback() && hostClass(h) == ClassLoopback:
			return true
		}
	}
	return false
}

// addrIs reports whether the address the guard would dial is one of
// buddi's own listeners.
func (s *selfSet) addrIs(addr netip.Addr, port uint16) bool {
	addr = addr.Unmap()
	for _, a := range s.list() {
		if a.port == port && (addr == a.addr || a.anyLoopback() && Classify(addr) == ClassLoopback) {
			return true
		}
	}
	return false
}

// AddSelf tells the URL rules one more of buddi's own addresses (host:port),
// known only once it listens: its egress guard's.
func (p *Policy) AddSelf(hostport string) error {
	a, err := parseSelf(hostport)
	if err != nil {
		return err
	}
	p.r.self.add(a)
	return nil
}

func refuseSelf() *Refusal {
	return refuse(CodeBuddiAddress, "That address is buddi itself (its own API or its egress guard), not a page to browse; navigate to the site or the preview you meant.")
}

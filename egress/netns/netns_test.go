package netns_test

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/buddi-dev/buddi/egress/netns"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func newNS(t *testing.T) *netns.Namespace {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("network namespaces need root")
	}
	n, err := netns.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = n.Listener().Close()
		_ = n.Close()
	})
	return n
}

// TestOnlyTheListenerLeadsOut: from inside, the listener is reachable and
// served from outside, while the host's loopback services and its other
// address are not, for TCP or UDP, and no packet reaches the host.
func TestOnlyTheListenerLeadsOut(t *testing.T) {
	n := newNS(t)
	host, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	trap := newTrap(t)

	accepted := make(chan error, 1)
	go func() {
		c, err := n.Listener().Accept()
		if err == nil {
			_, err = c.Write([]byte("guard"))
			_ = c.Close()
		}
		accepted <- err
	}()

	var viaListener string
	var hostErr error
	udpErrs := map[string]error{}
	err = n.Run(func() {
		c, err := net.DialTimeout("tcp4", n.Listener().Addr().String(), 5*time.Second)
		if err == nil {
			buf := make([]byte, 5)
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			k, _ := c.Read(buf)
			viaListener = string(buf[:k])
			_ = c.Close()
		}
		_, hostErr = net.DialTimeout("tcp4", host.Addr().String(), 5*time.Second)
		for _, h := range trap.Hosts {
			udpErrs[h] = sendUDP(h, trap.Port)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-accepted; err != nil || viaListener != "guard" {
		t.Fatalf("the listener did not lead out: %q %v", viaListener, err)
	}
	if !errors.Is(hostErr, syscall.ECONNREFUSED) {
		t.Fatalf("the host's loopback service from inside: %v, want connection refused", hostErr)
	}
	for h, err := range udpErrs {
		// Refused: answered inside (nothing listens there); unreachable:
		// no route at all. Either way the packet never left.
		if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, syscall.ENETUNREACH) {
			t.Errorf("UDP to %s from inside: %v, want refused or unreachable", h, err)
		}
	}
	if got := trap.Packets(); got != 0 {
		t.Fatalf("%d UDP packets reached the host", got)
	}
}

// sendUDP sends a datagram to host:port and reads the answer: a refusal
// (ICMP port unreachable) comes back as ECONNREFUSED.
func sendUDP(host string, port int) error {
	c, err := net.DialUDP("udp4", nil, &net.UDPAddr{IP: net.ParseIP(host), Port: port})
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.Write([]byte("stun")); err != nil {
		return err
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = c.Read(make([]byte, 16))
	return err
}

// trap counts UDP datagrams reaching one port on the host's loopback and
// on its first other IPv4 address.
type trap struct {
	Hosts []string
	Port  int
	got   atomic.Int64
}

func newTrap(t *testing.T) *trap {
	tr := &trap{Hosts: []string{"127.0.0.1"}}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && p.Addr().Is4() && !p.Addr().IsLoopback() {
			tr.Hosts = append(tr.Hosts, p.Addr().String())
			break
		}
	}
	for _, h := range tr.Hosts {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.ParseIP(h), Port: tr.Port})
		if err != nil {
			t.Fatal(err)
		}
		tr.Port = c.LocalAddr().(*net.UDPAddr).Port //nolint:forcetypeassert // a udp listener
		t.Cleanup(func() { _ = c.Close() })
		go func() {
			for {
				if _, _, err := c.ReadFromUDP(make([]byte, 64)); err != nil {
					return
				}
				tr.got.Add(1)
			}
		}()
	}
	return tr
}

func (tr *trap) Packets() int64 { return tr.got.Load() }

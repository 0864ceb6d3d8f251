package browsertest

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// UDPTrap counts the UDP packets that reach one port on 127.0.0.1 and on
// this host's first other address, where a page's WebRTC would send STUN,
// TURN and ICE packets if anything let it.
type UDPTrap struct {
	Port  int
	Hosts []string // "127.0.0.1", then the other address if the host has one
	got   atomic.Int64
}

// NewUDPTrap listens until the test ends.
func NewUDPTrap(t testing.TB) *UDPTrap {
	t.Helper()
	hosts := []string{"127.0.0.1"}
	if a := OtherAddr(); a.IsValid() {
		hosts = append(hosts, a.String())
	}
	for range 20 {
		u := &UDPTrap{Hosts: hosts}
		conns, err := u.listen()
		if errors.Is(err, syscall.EADDRINUSE) {
			continue // the port is taken on the other address: another one
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range conns {
			t.Cleanup(func() { _ = c.Close() })
			go u.count(c)
		}
		return u
	}
	t.Fatal("no UDP port free on every address")
	return nil
}

func (u *UDPTrap) listen() ([]*net.UDPConn, error) {
	var conns []*net.UDPConn
	for _, h := range u.Hosts {
		c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.ParseIP(h), Port: u.Port})
		if err != nil {
			for _, c := range conns {
				_ = c.Close()
			}
			return nil, err
		}
		u.Port = c.LocalAddr().(*net.UDPAddr).Port //nolint:forcetypeassert // a udp listener
		conns = append(conns, c)
	}
	return conns, nil
}

func (u *UDPTrap) count(c *net.UDPConn) {
	buf := make([]byte, 2048)
	for {
		if _, _, err := c.ReadFromUDP(buf); err != nil {
			return
		}
		u.got.Add(1)
	}
}

// Packets is how many packets have arrived so far, on every address.
func (u *UDPTrap) Packets() int64 { return u.got.Load() }

// OtherAddr is this host's first IPv4 address that is not loopback, or the
// zero Addr.
func OtherAddr() netip.Addr {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil && p.Addr().Is4() && !p.Addr().IsLoopback() {
			return p.Addr()
		}
	}
	return netip.Addr{}
}

// ProbePage is a page whose script tries every way WebRTC sends UDP at the
// trap: STUN and TURN servers there, and remote host candidates there
// injected into a connection it negotiated with itself. When gathering is
// complete and the connection has nowhere left to go (no local candidate
// at all, or a final ICE state), it fetches report with what it saw:
// ?candidates=N&gathering=S&state=S&attempts=N&error=E. The fetch is the
// signal a test waits for.
//
// A connection made before the page's renderer has heard the browser's
// list of networks waits for a change to it, which never comes in a network
// namespace with nothing but loopback: its gathering never completes. The
// renderer keeps the list once heard, so the script tries again with a new
// connection (up to ten times, two seconds each) until one completes.
func (u *UDPTrap) ProbePage(report string) string {
	var servers, hosts []string
	for _, h := range u.Hosts {
		addr := h + ":" + strconv.Itoa(u.Port)
		servers = append(servers, fmt.Sprintf(`{urls: 'stun:%s'}, {urls: 'turn:%s?transport=udp', username: 'u', credential: 'p'}`, addr, addr))
		hosts = append(hosts, "'"+h+"'")
	}
	return fmt.Sprintf(`<!doctype html><title>WebRTC probe</title><p>probing</p><script>
async function attempt() {
  let n = 0;
  const a = new RTCPeerConnection({iceServers: [%s]});
  const b = new RTCPeerConnection();
  a.createDataChannel('probe');
  a.onicecandidate = e => { if (e.candidate && e.candidate.candidate) n++; };
  const gathered = new Promise(r => { a.onicegatheringstatechange = () => { if (a.iceGatheringState === 'complete') r(); }; });
  await a.setLocalDescription(await a.createOffer());
  await b.setRemoteDescription(a.localDescription);
  await a.setRemoteDescription(await b.createAnswer());
  for (const h of [%s]) {
    await a.addIceCandidate({candidate: 'candidate:1 1 udp 2122260223 ' + h + ' %d typ host', sdpMid: '0', sdpMLineIndex: 0});
  }
  await Promise.race([gathered, new Promise(r => setTimeout(r, 2000))]);
  if (a.iceGatheringState === 'complete') {
    await new Promise(r => {
      const settled = () => n === 0 || ['failed', 'connected', 'completed', 'disconnected', 'closed'].includes(a.iceConnectionState);
      if (settled()) return r();
      a.oniceconnectionstatechange = () => { if (settled()) r(); };
      setTimeout(r, 20000); // only if packets are leaving: the test fails on them anyway
    });
  }
  return {n, gathering: a.iceGatheringState, state: a.iceConnectionState};
}
(async () => {
  let n = 0, gathering = 'none', state = 'none', error = '', tries = 0;
  try {
    while (tries < 10 && gathering !== 'complete') {
      tries++;
      const r = await attempt();
      n += r.n; gathering = r.gathering; state = r.state;
    }
  } catch (e) { error = String(e); }
  await fetch(%q + '?candidates=' + n + '&gathering=' + gathering + '&state=' + state + '&attempts=' + tries + '&error=' + encodeURIComponent(error));
  document.querySelector('p').textContent = 'probed';
})();
</script>`, strings.Join(servers, ", "), strings.Join(hosts, ", "), u.Port, report)
}

package egress_test

import (
	"io"
	"net"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

// BenchmarkConnect measures one connection with a one-byte round trip to a
// loopback server: directly, and through the guard (as a preview origin, so
// loopback is allowed). The difference in ns/op is the guard's added latency
// per connection; conns/s is the rate one client achieves.
func BenchmarkConnect(b *testing.B) {
	srv := startEcho(b)
	b.Run("direct", func(b *testing.B) {
		benchConns(b, func() (net.Conn, error) { return net.Dial("tcp", srv.addr()) })
	})
	b.Run("guard", func(b *testing.B) {
		g, _ := startGuard(b, egress.Config{PreviewOrigins: []string{"http://" + srv.addr()}})
		benchConns(b, func() (net.Conn, error) { return socksDial(b, g, srv.addr()) })
	})
}

func benchConns(b *testing.B, dial func() (net.Conn, error)) {
	b.ReportAllocs()
	one := []byte{'x'}
	buf := make([]byte, 1)
	for b.Loop() {
		c, err := dial()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Write(one); err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf); err != nil {
			b.Fatal(err)
		}
		_ = c.Close()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "conns/s")
}

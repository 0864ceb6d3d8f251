package egress_test

import (
	"slices"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

func TestChromiumFlags(t *testing.T) {
	flags := egress.ChromiumFlags("127.0.0.1:4321")
	for _, want := range []string{
		"--proxy-server=socks5://127.0.0.1:4321",
		"--proxy-bypass-list=<-loopback>",
		"--disable-quic",
		"--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
	} {
		if !slices.Contains(flags, want) {
			t.Errorf("missing %s in %q", want, flags)
		}
	}
}

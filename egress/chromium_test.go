package egress_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/egress"
)

func TestChromiumFlags(t *testing.T) {
	flags := egress.ChromiumFlags("127.0.0.1:4321")
	for _, want := range []string{
		"--proxy-server=socks5://127.0.0.1:4321",
		"--disable-quic",
		"--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
	} {
		if !slices.Contains(flags, want) {
			t.Errorf("missing %s in %q", want, flags)
		}
	}
	i := slices.IndexFunc(flags, func(f string) bool { return strings.HasPrefix(f, "--proxy-bypass-list=") })
	if i < 0 || !strings.HasPrefix(flags[i], "--proxy-bypass-list=<-loopback>;") || strings.Contains(flags[i], "accounts.google.com") {
		t.Fatalf("the bypass list must remove the loopback bypass and leave pages' hosts alone: %q", flags)
	}
}

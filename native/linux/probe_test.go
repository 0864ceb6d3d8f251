//go:build linux

package linux_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/native/protocol"
)

func checks(p *protocol.Permissions) map[string]protocol.Check {
	out := map[string]protocol.Check{}
	for _, c := range p.Checks {
		out[c.Name] = c
	}
	return out
}

func TestProbeFindsTheDisplayAndTheAccessibilityBus(t *testing.T) {
	s := newSession(t)
	p, err := s.c.Probe(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if !p.Ready || p.Platform != "linux-x11" {
		t.Fatalf("probe: %+v", p)
	}
	for _, name := range []string{"display", "input", "screen_capture", "accessibility"} {
		if c, ok := checks(p)[name]; !ok || !c.OK {
			t.Fatalf("check %s: %+v", name, c)
		}
	}
}

// TestProbeWithoutADisplayOrBusSaysSo: the mode is not offered where the
// helper finds no X display or no accessibility bus.
func TestProbeWithoutADisplayOrBusSaysSo(t *testing.T) {
	base := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	c := &protocol.Client{Path: helperBin, Env: base}
	p, err := c.Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := checks(p)
	if p.Ready || got["display"].OK || got["accessibility"].OK || !strings.Contains(got["display"].Detail, "DISPLAY") {
		t.Fatalf("with no display and no bus: %+v", p)
	}

	s := newSession(t)
	var noBus []string
	for _, kv := range s.d.Env {
		if !strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") {
			noBus = append(noBus, kv)
		}
	}
	noBus = append(noBus, "DBUS_SESSION_BUS_ADDRESS=unix:path="+t.TempDir()+"/none")
	p, err = (&protocol.Client{Path: helperBin, Env: noBus}).Probe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got = checks(p)
	if p.Ready || !got["display"].OK || got["accessibility"].OK {
		t.Fatalf("with a display but no bus: %+v", p)
	}
	if _, err := exec.LookPath(helperBin); err != nil {
		t.Fatal(err)
	}
}

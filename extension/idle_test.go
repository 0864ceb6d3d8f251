package extension_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/extension"
)

// TestWorkerStaysConnectedIdle leaves a paired extension idle for
// BUDDI_EXT_IDLE (a duration; the test is skipped without it, since it
// takes that long) and checks its first connection is still the live one:
// buddi's data pings keep the worker past Chrome's 30-second idle rule.
func TestWorkerStaysConnectedIdle(t *testing.T) {
	idle, err := time.ParseDuration(os.Getenv("BUDDI_EXT_IDLE"))
	if err != nil {
		t.Skip("set BUDDI_EXT_IDLE=2m to leave the worker idle that long")
	}
	src, _ := filepath.Abs(".")
	d := daemontest.Start(t, "", daemon.Options{Version: "test"})
	c := launch(t, src)
	c.workerIDs(1)
	popup := c.popup(extension.ID())
	code := connect(t, popup, d.Addr())
	if r := pair(t, d, code); !r.OK {
		t.Fatal(r.Error)
	}
	waitFor(t, "the extension to connect", func() bool { return view(t, d).Connected })
	if err := popup.Close(); err != nil { // no extension page keeps the worker alive
		t.Fatal(err)
	}
	first := view(t, d).LastSeen
	start := time.Now()
	for time.Since(start) < idle {
		time.Sleep(5 * time.Second)
		if v := view(t, d); !v.Connected || !v.LastSeen.Equal(first) {
			t.Fatalf("after %s idle the worker's connection was replaced or lost: %+v", time.Since(start).Round(time.Second), v)
		}
	}
	t.Logf("the worker kept its one connection for %s idle", idle)
}

package doctor

import (
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors"
	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/config"
)

func TestStoreRowShowsItsSizeAndRetention(t *testing.T) {
	c := config.Config{DataDir: t.TempDir(), Retention: 30 * 24 * time.Hour}
	st, err := ledger.Open(ledger.Path(c.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	sys := actors.NewSystem(slog.New(slog.DiscardHandler))
	pid := sys.Root.Spawn(ledger.Props(st, slog.New(slog.DiscardHandler), ledger.Retention{}))
	w := &ledger.Write{Ops: []ledger.Op{ledger.Put(ledger.AgentKey("ada"), ledger.Agent{ID: "ag_1", Name: "ada"}),
		ledger.Put(ledger.TaskKey("c1"), ledger.Task{Conversation: "c1", State: ledger.TaskEnded})}}
	if err := ledger.Check(ledger.Request(sys.Root, pid, w, 10*time.Second).Result()); err != nil {
		t.Fatal(err)
	}
	_ = sys.Root.PoisonFuture(pid).Wait()
	sys.Shutdown()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	// A few hundred bytes of records in a few KB of files: in the unit
	// that keeps the figure at least 1, never "0.0 MB".
	size := regexp.MustCompile(`[1-9][0-9.]* (B|KB|MB) on disk`)
	r := storeRow(c, Options{})
	if r.Level != OK || !size.MatchString(r.Text) || !strings.Contains(r.Text, "kept for 30 days (BUDDI_RETENTION)") ||
		!regexp.MustCompile(`2 records in [1-9][0-9]* B`).MatchString(r.Text) {
		t.Fatalf("closed store: %+v", r)
	}
	c.Retention = 0
	r = storeRow(c, Options{InUse: func() (string, int, bool) { return "127.0.0.1:7777", 42, true }})
	if r.Level != OK || !size.MatchString(r.Text) || !strings.Contains(r.Text, "kept for good") {
		t.Fatalf("store in use: %+v", r)
	}
	if n, err := ledger.DiskSize(ledger.Path(c.DataDir)); err != nil || n == 0 {
		t.Fatalf("DiskSize of a store Pebble made: %d, %v", n, err)
	}
}

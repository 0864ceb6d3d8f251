package doctor

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
	"github.com/buddi-dev/buddi/config"
)

func TestStoreRowShowsItsSizeAndRetention(t *testing.T) {
	c := config.Config{DataDir: t.TempDir(), Retention: 30 * 24 * time.Hour}
	st, err := ledger.Open(ledger.Path(c.DataDir))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	size := regexp.MustCompile(`[0-9]+\.[0-9] MB on disk`)
	r := storeRow(c, Options{})
	if r.Level != OK || !size.MatchString(r.Text) || !strings.Contains(r.Text, "kept for 30 days (BUDDI_RETENTION)") {
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

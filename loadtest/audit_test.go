package loadtest_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/loadtest"
)

// Under a thousand conversations the audit trail writes one act line per
// act (an act that got no answer, "transport", may or may not have
// reached buddi), and its files stay within their bound while they rotate.
func TestAuditTrailUnderLoad(t *testing.T) {
	const bound = 64 << 10
	cfg := loadtest.Config{Conversations: 1000, Duration: 4 * time.Second, OwnerRate: 2, Seed: 11, AuditBytes: bound}
	rep, err := loadtest.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Verbose() {
		_ = rep.WriteTable(os.Stderr)
	}
	a := rep.Audit
	switch {
	case a == nil || a.Error != "":
		t.Fatalf("the run reported no audit trail: %+v", a)
	case rep.Acts == 0:
		t.Fatal("no act was answered; the agents never ran")
	case a.ActsWritten > rep.Acts || a.ActsWritten < rep.Acts-rep.Errors["transport"]:
		t.Fatalf("the trail wrote %d act lines for %d acts (%d without an answer)", a.ActsWritten, rep.Acts, rep.Errors["transport"])
	case a.MaxFileBytes > bound || a.Files > 5 || a.Bytes > 5*bound:
		t.Fatalf("the trail is %d files, %d bytes, the largest %d; want at most 5 files of %d bytes", a.Files, a.Bytes, a.MaxFileBytes, bound)
	case a.Files < 5:
		t.Fatalf("the trail is %d files of %d bytes: the run never rotated it, so the bound went untested", a.Files, a.Bytes)
	}
}

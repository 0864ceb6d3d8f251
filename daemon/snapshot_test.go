package daemon_test

import (
	"testing"
	"time"

	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

// The dashboard's picture of a page the owner has taken over is one taken
// as it asks: the owner's hand may have changed the page since the last
// picture published, which the daemon kept and served before.
func TestThePictureOfAPageTakenOverIsTakenAsTheOwnerAsks(t *testing.T) {
	d, token := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	d.Observe(t, token, "c1")
	if r := act(t, d, token, "c1", map[string]any{"action": "navigate", "url": sim.Origin + "/p/1"}); r.Error != nil {
		t.Fatalf("navigate: %+v", r.Error)
	}
	ask := func() messages.Snapshot {
		t.Helper()
		var snap messages.Snapshot
		if err := d.Must(t, "POST", "/api/browser/snapshot", messages.OwnerBody{Conversation: "c1"}).Decode(&snap); err != nil {
			t.Fatal(err)
		}
		return snap
	}
	for deadline := time.Now().Add(20 * time.Second); ask().URL != sim.Origin+"/p/1"; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no picture of /p/1 was published")
		}
	}
	d.Must(t, "POST", "/api/browser/takeover", messages.OwnerBody{Conversation: "c1"})
	asked := time.Now()
	if snap := ask(); snap.At.Before(asked) || len(snap.JPEG) == 0 {
		t.Fatalf("the picture of the page taken over was taken at %v, before the owner asked at %v", snap.At, asked)
	}
}

package daemon_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
	"github.com/buddi-dev/buddi/ui/audit"
)

// oneAgent names every token and conversation ada's.
type oneAgent struct{}

func (oneAgent) AgentName(string) string { return "ada" }
func (oneAgent) AgentOf(string) string   { return "ada" }

// BenchmarkActThroughTheTrail measures an agent's act through a real
// daemon's actors, in process, as the surfaces make it: bare, and through
// the audit trail's wrapper writing to a real file. The difference is what
// the trail adds to an act.
func BenchmarkActThroughTheTrail(b *testing.B) {
	d := daemontest.Start(b, "", simOpts(sim.Config{}, nil))
	token := d.AddAgent(b, "ada", false)
	in, e := messages.DecodeAct([]byte(`{"action":"dom","maxChars":100}`))
	if e != nil {
		b.Fatal(e)
	}
	gen := 0
	bench := func(b *testing.B, c audit.Client) {
		lat := make([]time.Duration, 0, b.N)
		conv, used := "", 79
		ctx := context.Background()
		b.ResetTimer()
		for range b.N {
			if used == 79 {
				b.StopTimer()
				if conv != "" {
					d.Must(b, "POST", "/api/browser/release", messages.OwnerBody{Conversation: conv})
					d.WaitSession(b, conv, "")
				}
				gen++
				conv, used = fmt.Sprintf("t%d", gen), 0
				d.Task(b, "ada", conv, 80)
				b.StartTimer()
			}
			used++
			start := time.Now()
			tr, e := c.Tool(ctx, &messages.ToolCall{TokenHash: secret.Hash(token), Conversation: conv, Tool: messages.ToolAct, Act: in, Surface: messages.SurfaceCLI})
			if e != nil || tr.Error != nil {
				b.Fatalf("dom: %v %v", e, tr)
			}
			lat = append(lat, time.Since(start))
		}
		b.StopTimer()
		d.Must(b, "POST", "/api/browser/release", messages.OwnerBody{Conversation: conv})
		d.WaitSession(b, conv, "")
		percentiles(b, lat, "act")
	}
	b.Run("bare", func(b *testing.B) { bench(b, d.Actors()) })
	b.Run("audited", func(b *testing.B) {
		l, err := audit.Open(b.TempDir(), audit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer func() { _ = l.Close() }()
		bench(b, audit.Wrap(d.Actors(), l, oneAgent{}))
	})
}

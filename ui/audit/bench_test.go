package audit_test

import (
	"context"
	"testing"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/audit"
)

// BenchmarkToolCall measures what the trail adds to an agent call at the
// surface: the call through the bare client and through audit.Actors,
// from many goroutines at once, and the lines the writer keeps up with.
func BenchmarkToolCall(b *testing.B) {
	call := &messages.ToolCall{TokenHash: "h-ada", Conversation: "c1", Tool: messages.ToolAct,
		Act: &messages.ActInput{Action: "click", Observation: "o1", Target: &messages.TargetRef{Ref: "e12"}}}
	run := func(b *testing.B, c audit.Client) {
		ctx := context.Background()
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				_, _ = c.Tool(ctx, call)
			}
		})
	}
	b.Run("bare", func(b *testing.B) { run(b, answering{}) })
	b.Run("audited", func(b *testing.B) {
		l, err := audit.Open(b.TempDir(), audit.Options{MaxBytes: 4 << 20, Keep: 2})
		if err != nil {
			b.Fatal(err)
		}
		run(b, audit.Wrap(answering{}, l, names{}))
		if err := l.Close(); err != nil { // every line written
			b.Fatal(err)
		}
		b.StopTimer()
		acts, _ := l.Written()
		if acts != int64(b.N) {
			b.Fatalf("wrote %d lines for %d calls", acts, b.N)
		}
		b.ReportMetric(float64(acts)/b.Elapsed().Seconds(), "lines/s")
	})
}

package bounded_test

import (
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/internal/bounded"
)

// BenchmarkDeadline measures a call's deadline that nothing waits on, as
// on the agent's hot path: made, its Err read, cancelled; against
// context.WithTimeout, which arms and stops a timer each time.
func BenchmarkDeadline(b *testing.B) {
	b.Run("bounded", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := bounded.New(time.Minute)
			_ = c.Err()
			c.Cancel()
		}
	})
	b.Run("withTimeout", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, cancel := context.WithTimeout(context.Background(), time.Minute)
			_ = c.Err()
			cancel()
		}
	})
}

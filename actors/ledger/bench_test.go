package ledger_test

import (
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/actors/ledger"
)

// BenchmarkSyncedWrite measures one acknowledged, fsynced write through the
// ledger actor and reports p50 and p99.
func BenchmarkSyncedWrite(b *testing.B) {
	_, pid, sys := open(b)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, err := ledger.Request(sys.Root, pid, &ledger.Write{Ops: []ledger.Op{
			ledger.Put(ledger.SessionKey("c"+strconv.Itoa(i%64)), ledger.Session{StepsUsed: i}),
		}}, 5*time.Second).Result()
		if err != nil || res.(*ledger.Written).Err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

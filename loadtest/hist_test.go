package loadtest

import (
	"testing"
	"time"
)

func TestHistQuantilesAreCloseAndNeverLow(t *testing.T) {
	var h hist
	for i := 1; i <= 10000; i++ {
		h.record(time.Duration(i) * time.Microsecond) // 1 µs … 10 ms, uniform
	}
	for _, c := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 5 * time.Millisecond}, {0.9, 9 * time.Millisecond}, {0.99, 9900 * time.Microsecond}} {
		got := h.quantile(c.q)
		if got < c.want || float64(got) > 1.04*float64(c.want) {
			t.Errorf("q%.2f = %s, want %s to 4 %% above", c.q, got, c.want)
		}
	}
	if h.maximum() != 10*time.Millisecond || h.quantile(1) != 10*time.Millisecond {
		t.Errorf("max %s, q1 %s; want 10ms", h.maximum(), h.quantile(1))
	}
}

func TestHistBucketsCoverEveryValue(t *testing.T) {
	for _, us := range []uint64{0, 1, 31, 32, 33, 63, 64, 1000, 123456, 1 << 35} {
		i := bucketOf(us)
		if upper(i) < us || (i > 0 && upper(i-1) >= us) {
			t.Errorf("%d µs fell in bucket %d ending at %d (previous ends at %d)", us, i, upper(i), upper(i-1))
		}
	}
}

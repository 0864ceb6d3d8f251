package main

import (
	"runtime/debug"
	"testing"
)

func TestTheCollectorTargetGivesWayToGOGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	for _, c := range []struct {
		gogc         string
		target, want int // asked for, and what the collector has then
	}{{"", daemonGC, daemonGC}, {"", bridgeGC, bridgeGC}, {"50", daemonGC, 100}, {"off", bridgeGC, 100}} {
		debug.SetGCPercent(100)
		tuneGC(&env{getenv: func(k string) string {
			if k == "GOGC" {
				return c.gogc
			}
			return ""
		}}, c.target)
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("with GOGC=%q the target is %d, want %d", c.gogc, got, c.want)
		}
	}
}

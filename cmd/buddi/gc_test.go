package main

import (
	"runtime/debug"
	"testing"
)

func TestTheDaemonsCollectorTargetGivesWayToGOGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	for _, c := range []struct {
		gogc string
		want int
	}{{"", daemonGC}, {"50", 100}, {"off", 100}} {
		debug.SetGCPercent(100)
		tuneGC(&env{getenv: func(k string) string {
			if k == "GOGC" {
				return c.gogc
			}
			return ""
		}})
		if got := debug.SetGCPercent(100); got != c.want {
			t.Errorf("with GOGC=%q the target is %d, want %d", c.gogc, got, c.want)
		}
	}
}

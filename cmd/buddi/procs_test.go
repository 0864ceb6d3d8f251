package main

import "testing"

func TestTheDaemonsPsRiseOnlyOnASmallMachineWithNoOtherChoice(t *testing.T) {
	for _, c := range []struct {
		env         string
		procs, cpus int
		want        int
	}{
		{"", 1, 1, daemonProcs},
		{"", 2, 2, daemonProcs},
		{"", 4, 4, daemonProcs},
		{"", 6, 6, 0},   // as many CPUs as daemonProcs: Go's choice
		{"", 16, 16, 0}, // a large machine
		{"2", 2, 2, 0},  // GOMAXPROCS chose
		{"8", 8, 2, 0},  // GOMAXPROCS chose more
		{"", 1, 2, 0},   // a container's CPU limit below the CPUs
	} {
		if got := procsFor(c.env, c.procs, c.cpus); got != c.want {
			t.Errorf("GOMAXPROCS=%q, Go's choice %d, %d CPUs: %d Ps, want %d", c.env, c.procs, c.cpus, got, c.want)
		}
	}
}

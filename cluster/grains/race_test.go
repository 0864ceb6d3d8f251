//go:build race

package grains_test

import (
	"os/exec"
	"testing"
)

// raceDetector is true in a build with the race detector.
const raceDetector = true

// The cluster tests cannot run under the race detector: protoactor-go's
// cluster, remote and etcd provider (v0.0.0-20240822202345-3c0e61ca19c9)
// race on their own fields (the etcd Provider's shutdown flag, MemberList.members, BlockList, the gossip informer's
// shared rand.Rand) and remote.Start replaces grpc's global logger while
// other grpc clients run. So this build runs them in a build without it,
// and fails with that run's output when it fails.
func TestClusterWithoutTheRaceDetector(t *testing.T) {
	out, err := exec.Command("go", "test", "-count=1", "-timeout", "10m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("the cluster tests without the race detector failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}

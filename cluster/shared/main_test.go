package shared_test

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// Every test closes what it opens: no etcd client, watch or probe
// goroutine may outlive the tests. Run as a member to be killed (see
// startMember), the test binary registers and waits instead.
func TestMain(m *testing.M) {
	if endpoint := os.Getenv(memberChildEnv); endpoint != "" {
		os.Exit(runMemberChild(endpoint))
	}
	goleak.VerifyTestMain(m)
}

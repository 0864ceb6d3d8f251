package shared_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Every test closes what it opens: no etcd client, watch or probe
// goroutine may outlive the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// Package cluster_test runs buddi as a cluster: three `buddi serve
// --cluster` processes with the sim driver on 127.0.0.1, one real etcd
// (cluster/etcdtest), and the owner and agents reaching them over HTTP
// and the CLI as they would. The binary is built with the k8s tag, so
// that the members can also keep their list in Kubernetes (k8s_test.go).
package cluster_test

import (
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

var bin string

func TestMain(m *testing.M) { daemontest.MainWithBinary(m, "../../cmd/buddi", &bin, "-tags", "k8s") }

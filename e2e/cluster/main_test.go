// Package cluster_test runs buddi as a cluster: three `buddi serve
// --cluster` processes with the sim driver on 127.0.0.1, one real etcd
// (cluster/etcdtest), and the owner and agents reaching them over HTTP
// and the CLI as they would. Run with -tags k8s (make test-k8s), the
// binary is built with the Kubernetes membership too, and the members also
// run as pods of a real kube-apiserver (k8s_test.go).
package cluster_test

import (
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

var bin string

func TestMain(m *testing.M) { daemontest.MainWithBinary(m, "../../cmd/buddi", &bin, memberBuild...) }

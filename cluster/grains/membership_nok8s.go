//go:build !k8s

package grains

import (
	"errors"

	"github.com/asynkron/protoactor-go/cluster"
)

// K8sLinked says whether this build has the k8s membership.
const K8sLinked = false

func k8sProvider() (cluster.ClusterProvider, error) {
	return nil, errors.New("grains: this buddi was built without the k8s membership; build it with `make build TAGS=k8s` (go build -tags k8s), or keep the member list in etcd")
}

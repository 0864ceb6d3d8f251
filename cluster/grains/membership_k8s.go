//go:build k8s

package grains

import (
	"fmt"

	"github.com/asynkron/protoactor-go/cluster"
	"github.com/asynkron/protoactor-go/cluster/clusterproviders/k8s"
)

// K8sLinked says whether this build has the k8s membership.
const K8sLinked = true

func k8sProvider() (cluster.ClusterProvider, error) {
	p, err := k8s.New()
	if err != nil {
		return nil, fmt.Errorf("grains: the k8s membership runs only in a Kubernetes pod, with its service account mounted: %w", err)
	}
	return p, nil
}

package grains

import (
	"context"
	"fmt"

	"github.com/asynkron/protoactor-go/cluster"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
	"google.golang.org/grpc"
)

// Who keeps the member list: protoactor's cluster providers a buddi
// cluster can run on. Whichever it is, the state every member agrees on
// (Stop, agents, tasks, site answers) stays in etcd.
const (
	// MembershipEtcd keeps the list under Config.Prefix in etcd, with a
	// lease of MemberLease per member (membership_etcd.go).
	MembershipEtcd = "etcd"
	// MembershipK8s keeps it in the labels of the members' pods: each
	// member labels its own pod and watches its namespace's. It runs only
	// in a pod whose service account may get, list, watch and patch the
	// pods of its namespace, and counts a pod only while it is running
	// and ready. It is linked only into a buddi built with the k8s tag
	// (K8sLinked): the Kubernetes client adds 26 MB to the binary and
	// 25 MB to every process's memory at start.
	MembershipK8s = "k8s"
)

// Memberships are the values Config.Membership accepts.
var Memberships = []string{MembershipEtcd, MembershipK8s}

// membership makes the cluster provider c names. A provider that cannot
// reach what keeps its list fails here, with a sentence, rather than
// retrying in the background while the member takes work.
func (c Config) membership(ctx context.Context) (cluster.ClusterProvider, error) {
	switch c.Membership {
	case MembershipK8s:
		return k8sProvider()
	default:
		// The client dials blocking: an etcd that does not answer within
		// DialTimeout fails here, before the member starts anything.
		cli, err := clientv3.New(clientv3.Config{
			Endpoints: c.Endpoints, DialTimeout: c.DialTimeout, Context: ctx, TLS: c.EtcdTLS,
			// etcd's client dials with grpc.DialContext, where WithBlock
			// still holds (deprecated for grpc.NewClient only).
			DialOptions: []grpc.DialOption{grpc.WithBlock()}, Logger: zap.NewNop(), //nolint:staticcheck // see above
		})
		if err != nil {
			return nil, fmt.Errorf("grains: etcd at %v does not answer (%w); start it, or check the etcd endpoints", c.Endpoints, err)
		}
		p := newEtcdMembers(cli, c.Prefix, c.DialTimeout, MemberLease)
		p.onLapse = c.OnLapse
		return p, nil
	}
}

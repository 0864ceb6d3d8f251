//go:build k8s

package cluster_test

import (
	"os"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/k8stest"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// inPods starts etcd, a real kube-apiserver given the service account and
// role of deploy/k8s/buddi.yaml, and members a, b and c, each as the
// container of a pod of that account, with BUDDI_CLUSTER_MEMBERSHIP=k8s;
// it adds the agent ada through a and returns once each member takes work
// and has labelled its pod a member of the cluster.
func inPods(t *testing.T) (etcd *etcdtest.Server, kube *k8stest.Server, a, b, c *member) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("a member runs as a pod's container with the pod's host name and service account mounted, which needs root (unshare)")
	}
	etcd = etcdtest.Start(t)
	kube = k8stest.Start(t, etcd.Endpoint(), "buddi")
	if n := kube.ApplyAccess(t, "../../deploy/k8s/buddi.yaml"); n != 3 {
		t.Fatalf("deploy/k8s/buddi.yaml gave %d service accounts, roles and bindings; want 3", n)
	}
	start := func(name, agent string) *member {
		pod := "buddi-" + name
		kube.Pod(t, pod, "buddi")
		prefix, env := kube.InPod(t, pod, "buddi")
		m := &member{name: name, dir: t.TempDir(), addr: daemontest.FreeAddr(t), etcd: etcd, agent: agent,
			wrap: prefix, env: append(env, "BUDDI_CLUSTER_MEMBERSHIP=k8s")}
		m.start(t)
		// The kubelet's readiness probe: the pod is ready once serve answers.
		kube.SetReady(t, pod, true)
		return m
	}
	a = start("a", "")
	a.agent = a.AddAgent(t, "ada", false)
	b, c = start("b", a.agent), start("c", a.agent)
	for _, m := range []*member{a, b, c} {
		m.eventually(t, messages.CodeNoTask)
		waitFor(t, "buddi-"+m.name+" labelled a member of the cluster", func() bool {
			l := kube.Labels(t, "buddi-"+m.name)
			return l["cluster.proto.actor/cluster"] == "buddi" && l["cluster.proto.actor/member-id"] != "" && l["app"] == "buddi"
		})
	}
	return etcd, kube, a, b, c
}

// Members that find each other through their pods' labels route a
// conversation started through one to the one that holds it; when that
// member is killed and its pod stops being ready, the conversation moves
// to another member with its task.
func TestMembersInPodsFindEachOtherThroughKubernetes(t *testing.T) {
	etcd, kube, a, b, c := inPods(t)
	a.Task(t, "ada", "k1", 20)
	c.Observe(t, c.agent, "k1")
	b.Observe(t, b.agent, "k1")
	home := homeOf(t, etcd, "k1", a, b, c)
	before, ok := stepsOf(t, home, "k1")
	if !ok || before.StepsUsed != 2 {
		t.Fatalf("%s, the member holding k1, lists %+v (found %v); want one session with 2 steps used", home.name, before, ok)
	}
	for _, m := range []*member{a, b, c} {
		h := m.health(t)
		if held := h.Capacity.Sessions.InUse; held != map[bool]int{true: 1, false: 0}[m == home] {
			t.Fatalf("%s holds %d sessions; only %s holds k1", m.name, held, home.name)
		}
		if h.Cluster == nil || h.Cluster.Membership != "k8s" {
			t.Fatalf("%s's health says %+v; want the k8s membership", m.name, h.Cluster)
		}
	}

	home.kill9()
	// The kubelet's probe fails: the pod is running and not ready.
	kube.SetReady(t, "buddi-"+home.name, false)
	untilMoved(t, others(home, a, b, c)[0], "k1")
	movedWithTask(t, etcd, "k1", before, a, b, c)
}

// waitFor polls ok until it holds, failing the test after patience.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", patience, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

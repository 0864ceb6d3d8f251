package cluster_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/messages"
)

// three starts etcd and members a, b and c on it (with env in serve's
// environment), adds the agent ada
// through a, and returns once each member knows ada, takes work and lists
// all three.
func three(t testing.TB, env ...string) (etcd *etcdtest.Server, a, b, c *member) {
	t.Helper()
	etcd = etcdtest.Start(t)
	a = startMember(t, etcd, "a", "", env...)
	a.agent = a.AddAgent(t, "ada", false)
	b, c = startMember(t, etcd, "b", a.agent, env...), startMember(t, etcd, "c", a.agent, env...)
	for _, m := range []*member{a, b, c} {
		m.eventually(t, messages.CodeNoTask)
		m.listsExactly(t, a, b, c)
	}
	return etcd, a, b, c
}

// The owner's Stop through b's CLI holds on a and c; a member started
// while it is in force refuses from its first answer; the Stop survives
// restarting all three members; resume-all through one lifts it on all.
func TestStopThroughOneMemberHoldsOnEveryMemberAcrossRestarts(t *testing.T) {
	etcd, a, b, c := three(t)

	if out := b.cli(t, "stop"); !strings.Contains(out, "All browser access is stopped") {
		t.Fatalf("buddi stop through b said %q", out)
	}
	for _, m := range []*member{a, b, c} {
		m.eventually(t, messages.CodeStopped)
	}

	late := startMember(t, etcd, "late", a.agent)
	if r := late.probe(t); r.Code() != messages.CodeStopped {
		t.Fatalf("a member started under the Stop first answered %q", r.Code())
	}
	if h := late.health(t); !h.Stopped {
		t.Fatal("a member started under the Stop says in /healthz that it is not stopped")
	}
	for _, m := range []*member{a, b, c, late} {
		m.listsExactly(t, a, b, c, late)
	}
	late.stop()

	for _, m := range []*member{a, b, c} {
		m.stop()
	}
	for _, m := range []*member{a, b, c} {
		m.start(t)
	}
	for _, m := range []*member{a, b, c} {
		if r := m.probe(t); r.Code() != messages.CodeStopped {
			t.Fatalf("%s restarted answers %q under the Stop", m.name, r.Code())
		}
		m.listsExactly(t, a, b, c)
	}

	if out := c.cli(t, "resume", "--all"); !strings.Contains(out, "resumed") {
		t.Fatalf("buddi resume --all through c said %q", out)
	}
	for _, m := range []*member{a, b, c} {
		m.eventually(t, messages.CodeNoTask)
		if m.health(t).Stopped {
			t.Fatalf("%s takes work but says it is stopped", m.name)
		}
	}
}

// With etcd stopped every member refuses new work with the sentence of
// cluster_unreachable, and takes work again when etcd is back; a member
// killed with SIGKILL leaves every other member's list once its lease
// runs out.
func TestMembersRefuseWithoutEtcdAndAKilledMemberLeavesTheList(t *testing.T) {
	etcd, a, b, c := three(t)

	etcd.Stop()
	for _, m := range []*member{a, b, c} {
		r := m.eventually(t, messages.CodeClusterDown)
		if r.Error == nil || !strings.Contains(r.Error.Message, "cannot reach the cluster's etcd") || !strings.Contains(r.Error.Message, strings.TrimPrefix(etcd.Endpoint(), "http://")) {
			t.Fatalf("%s refuses without etcd with %+v; want the sentence naming etcd's address", m.name, r.Error)
		}
		// The probe's conversation may live on another member, which
		// noticed first: each member's own health says it in turn.
		m.healthUntil(t, func(h messages.Health) bool { return h.Cluster.Etcd == "unreachable" && h.Cluster.Problem != "" })
	}
	etcd.Restart()
	for _, m := range []*member{a, b, c} {
		m.eventually(t, messages.CodeNoTask)
		m.listsExactly(t, a, b, c)
	}

	c.kill9()
	a.listsExactly(t, a, b)
	b.listsExactly(t, a, b)
}

package cluster_test

import (
	"bufio"
	"strconv"
	"strings"
	"testing"
	"time"

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
	for _, m := range []*member{a, b, c} {
		m.routesTo(t, 3)
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
		// The probe's conversation may live on another member, which
		// heard of the resume first: each member's own health says it in
		// its turn.
		m.healthUntil(t, func(h messages.Health) bool { return !h.Stopped })
	}
}

// With etcd stopped every member refuses new work with the sentence of
// cluster_unreachable: a new conversation, an agent's first call or the
// owner's task, is refused at once, without trying to claim it in etcd.
// Every member takes work again when etcd is back, new conversations too;
// a member killed with SIGKILL leaves every other member's list once its
// lease runs out.
func TestMembersRefuseWithoutEtcdAndAKilledMemberLeavesTheList(t *testing.T) {
	etcd, a, b, c := three(t)
	etcdAddr := strings.TrimPrefix(etcd.Endpoint(), "http://")

	etcd.Stop()
	for _, m := range []*member{a, b, c} {
		r := m.eventually(t, messages.CodeClusterDown)
		if r.Error == nil || !strings.Contains(r.Error.Message, "cannot reach the cluster's etcd") || !strings.Contains(r.Error.Message, etcdAddr) {
			t.Fatalf("%s refuses without etcd with %+v; want the sentence naming etcd's address", m.name, r.Error)
		}
		// The probe's conversation may live on another member, which
		// noticed first: each member's own health says it in turn.
		m.healthUntil(t, func(h messages.Health) bool { return h.Cluster.Etcd == "unreachable" && h.Cluster.Problem != "" })
	}
	claimed := map[*member]int{}
	for _, m := range []*member{a, b, c} {
		claimed[m] = m.claims(t)
	}
	for _, m := range []*member{a, b, c} {
		conv := "new-" + m.name
		start := time.Now()
		r := m.Act(t, m.agent, conv, map[string]any{"action": "observe"})
		took := time.Since(start)
		if r.Code() != messages.CodeClusterDown || !strings.Contains(r.Error.Message, etcdAddr) {
			t.Fatalf("a new conversation through %s without etcd answered %q (%v); want cluster_unreachable naming etcd", m.name, r.Code(), r.Error)
		}
		task, err := m.Do("POST", "/api/tasks", m.Owner, messages.OwnerBody{Agent: "ada", Conversation: conv + "-task", Description: "a task while etcd is away", Steps: 5, Minutes: 5})
		if err != nil {
			t.Fatal(err)
		}
		if task.Code() != messages.CodeClusterDown {
			t.Fatalf("a new task through %s without etcd answered %q; want cluster_unreachable", m.name, task.Code())
		}
		t.Logf("a new conversation through %s was refused without etcd after %v", m.name, took)
	}
	for _, m := range []*member{a, b, c} {
		if n := m.claims(t); n != claimed[m] {
			t.Fatalf("%s tried to claim %d conversations in etcd while it knew etcd was away", m.name, n-claimed[m])
		}
	}
	etcd.Restart()
	for _, m := range []*member{a, b, c} {
		m.eventually(t, messages.CodeNoTask)
		m.listsExactly(t, a, b, c)
	}
	for _, m := range []*member{a, b, c} {
		conv := "new-" + m.name
		// A member that answered once with etcd back may still be
		// reconnecting its watches; the task is asked for until it is
		// taken (the refusal is the sentence checked above).
		for deadline := time.Now().Add(patience); ; time.Sleep(100 * time.Millisecond) {
			r, err := m.Do("POST", "/api/tasks", m.Owner, messages.OwnerBody{Agent: "ada", Conversation: conv, Description: "a task once etcd is back", Steps: 5, Minutes: 5})
			if err != nil {
				t.Fatal(err)
			}
			if r.OK {
				break
			}
			if r.Code() != messages.CodeClusterDown || time.Now().After(deadline) {
				t.Fatalf("a task through %s after etcd came back: %s: %s", m.name, r.Code(), r.Error.Message)
			}
		}
		m.Observe(t, m.agent, conv)
	}

	c.kill9()
	a.listsExactly(t, a, b)
	b.listsExactly(t, a, b)
}

// claims is how many conversations the member has tried to claim in etcd,
// as its /metrics says.
func (m *member) claims(t testing.TB) int {
	t.Helper()
	resp := m.ownerGet(t, "/metrics")
	defer resp.Body.Close()
	for sc := bufio.NewScanner(resp.Body); sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), "buddi_cluster_claims_total "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatalf("%s's claims: %v", m.name, err)
			}
			return int(n)
		}
	}
	t.Fatalf("%s's /metrics has no buddi_cluster_claims_total", m.name)
	return 0
}

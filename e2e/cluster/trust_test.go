package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// attacker is a process that can write to the cluster's etcd but does
// not hold the cluster's secret.
type attacker struct {
	t   testing.TB
	cli *clientv3.Client
}

func newAttacker(t testing.TB, etcd *etcdtest.Server) *attacker {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{etcd.Endpoint()}, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	return &attacker{t: t, cli: cli}
}

func (a *attacker) put(key string, v any) {
	a.t.Helper()
	raw, ok := v.([]byte)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			a.t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if _, err := a.cli.Put(ctx, key, string(raw)); err != nil {
		a.t.Fatal(err)
	}
}

func (a *attacker) get(key string) []byte {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	got, err := a.cli.Get(ctx, key)
	if err != nil || len(got.Kvs) != 1 {
		a.t.Fatalf("read %s: %v", key, err)
	}
	return got.Kvs[0].Value
}

func (a *attacker) del(key string) {
	a.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	if _, err := a.cli.Delete(ctx, key); err != nil {
		a.t.Fatal(err)
	}
}

// refused waits until the member has logged the refusal of the record at
// key for why: it has seen the attacker's write there.
func (m *member) refused(t testing.TB, key, why string) {
	t.Helper()
	anyRefused(t, key, why, m)
}

// anyRefused waits until one of ms has logged the refusal of the record
// at key for why.
func anyRefused(t testing.TB, key, why string, ms ...*member) {
	t.Helper()
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, m := range ms {
			for line := range strings.Lines(m.logs.String()) {
				if strings.Contains(line, "a record in etcd is refused") && strings.Contains(line, key) && strings.Contains(line, why) {
					return
				}
			}
		}
	}
	t.Fatalf("no member logged the refusal of %s (%s)", key, why)
}

// notSigned is how a member logs a record written without the secret.
const notSigned = "not signed with this cluster's secret"

// two is a cluster of two members on one etcd, with the agent ada.
func two(t testing.TB, env ...string) (etcd *etcdtest.Server, a, b *member) {
	t.Helper()
	etcd = etcdtest.Start(t)
	a = startMember(t, etcd, "a", "", env...)
	a.agent = a.AddAgent(t, "ada", false)
	b = startMember(t, etcd, "b", a.agent, env...)
	for _, m := range []*member{a, b} {
		m.eventually(t, messages.CodeNoTask)
		m.listsExactly(t, a, b)
	}
	return etcd, a, b
}

// A process that can write to etcd but lacks the cluster's secret cannot
// add an agent, lift a Stop (by a resume, a delete or an older signed
// resume written back), start a task or approve a site on any member;
// each attempt is refused and logged. The owner's resume lifts the Stop.
func TestAWriterWithoutTheSecretHoldsNoAuthority(t *testing.T) {
	etcd, a, b := two(t, "BUDDI_SITE_APPROVAL=ask", "BUDDI_SIM_HOSTS=shop.example.com")
	both := []*member{a, b}
	evil := newAttacker(t, etcd)

	// An agent with the attacker's token.
	token := secret.New("ba_")
	evil.put("/buddi/agents/mallory", map[string]any{"id": "m1", "name": "mallory", "tokenHash": secret.Hash(token),
		"grants": []string{"*"}, "autoApprove": true, "created": time.Now()})
	for _, m := range both {
		m.refused(t, "/buddi/agents/mallory", notSigned)
		r, err := m.Do("POST", "/api/tools/browser.act", token, map[string]any{"conversation": "evil", "input": map[string]any{"action": "observe"}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Code() != messages.CodeUnauthorized {
			t.Fatalf("the attacker's agent through %s answered %q, want unauthorized", m.name, r.Code())
		}
	}

	// A task the owner never gave, on a conversation etcd says another
	// member held (so a member would adopt it).
	evil.put("/buddi/homes/forged", []byte("gone-member"))
	evil.put("/buddi/tasks/forged", map[string]any{"conversation": "forged", "agent": "ada", "description": "not the owner's",
		"state": "active", "maxSteps": 50, "created": time.Now(), "started": time.Now(), "expires": time.Now().Add(time.Hour)})
	if r := a.Act(t, a.agent, "forged", map[string]any{"action": "observe"}); r.Code() != messages.CodeNoTask {
		t.Fatalf("an act on the forged task answered %q, want no_task", r.Code())
	}
	anyRefused(t, "/buddi/tasks/forged", notSigned, both...) // by the member holding the conversation

	// An answer "always" to a site the owner never gave.
	a.Task(t, "ada", "shop", 20)
	evil.put("/buddi/sites/0123456789abcdef0123456789abcdef", map[string]any{"scheme": "https", "site": map[string]string{"domain": "example.com"}})
	for _, m := range both {
		m.refused(t, "/buddi/sites/0123456789abcdef0123456789abcdef", notSigned)
	}
	if r := b.Act(t, b.agent, "shop", map[string]any{"action": "navigate", "url": "https://shop.example.com/p/1"}); r.Code() != messages.CodeApprovalRequired {
		t.Fatalf("a navigation to a site only the attacker answered answered %q, want approval_required", r.Code())
	}

	// The Stop: a signed "not stopped" captured now, then the owner stops.
	captured := evil.get("/buddi/stop")
	if out := a.cli(t, "stop"); !strings.Contains(out, "All browser access is stopped") {
		t.Fatalf("buddi stop said %q", out)
	}
	for _, m := range both {
		m.eventually(t, messages.CodeStopped)
	}
	attempts := []struct {
		name, why string
		write     func()
	}{
		{"an unsigned resume", notSigned, func() {
			evil.put("/buddi/stop", map[string]any{"v": 2, "stopped": false, "at": time.Now(), "seq": 1 << 40})
		}},
		{"a delete", "it was deleted", func() { evil.del("/buddi/stop") }},
		{"an older signed resume written back", "is older than", func() { evil.put("/buddi/stop", captured) }},
	}
	for _, at := range attempts {
		at.write()
		for _, m := range both {
			m.refused(t, "/buddi/stop", at.why)
			if r := m.probe(t); r.Code() != messages.CodeStopped {
				t.Fatalf("after %s, %s answers %q, want stopped", at.name, m.name, r.Code())
			}
		}
	}
	b.cli(t, "resume", "--all")
	for _, m := range both {
		m.eventually(t, messages.CodeNoTask)
	}
}

// A member without the cluster's secret, with one others may read, or
// with another cluster's does not start, and says what to copy where.
func TestAMemberWithoutTheSecretDoesNotStart(t *testing.T) {
	etcd := etcdtest.Start(t)
	startMember(t, etcd, "a", "")
	dir := t.TempDir()
	open := filepath.Join(dir, "open.secret")
	shared, err := os.ReadFile(secretFor(t, etcd))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(open, shared, 0o644); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.secret")
	if out, err := exec.Command(bin, "cluster", "init", "--out", other).CombinedOutput(); err != nil {
		t.Fatalf("cluster init: %v: %s", err, out)
	}
	cases := map[string]struct{ secret, says string }{
		"no secret":                  {filepath.Join(dir, "none"), "buddi cluster init --out"},
		"a secret others may read":   {open, "chmod 600"},
		"another cluster's secret":   {other, "copy the cluster.secret file of a running member to this host"},
		"none in the data directory": {"", "No cluster secret at"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			said := refusedStart(t, etcd, "BUDDI_CLUSTER_SECRET="+c.secret)
			if !strings.Contains(said, c.says) {
				t.Fatalf("serve said %q, want a sentence saying %q", said, c.says)
			}
		})
	}
}

// refusedStart runs a member that must not start and returns what it
// said on stderr when it exited.
func refusedStart(t testing.TB, etcd *etcdtest.Server, env ...string) string {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--cluster", "--data", t.TempDir(), "--addr", daemontest.FreeAddr(t))
	cmd.Env = append(cleanEnv(), "BUDDI_DRIVER=sim", "BUDDI_CLUSTER_ETCD="+strings.TrimPrefix(etcd.Endpoint(), "http://"))
	cmd.Env = append(cmd.Env, env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatalf("the member exited cleanly: %s", stderr.String())
		}
	case <-time.After(patience):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("the member did not exit; it said %s", stderr.String())
	}
	return stderr.String()
}

// olderWhy is how a member logs a signed record older than one it saw.
const olderWhy = "is older than"

// Older records, validly signed, written back by a process that can write
// to etcd are refused and logged by every member: a removed agent's
// record does not bring it back, and an earlier count of steps does not
// give a fresh budget to the member that adopts the conversation after its
// member was killed (it refuses to adopt; the task does not go on).
func TestOlderSignedRecordsWrittenBackAreRefusedByEveryMember(t *testing.T) {
	etcd, a, b := two(t)
	both := []*member{a, b}
	evil := newAttacker(t, etcd)

	bob := a.AddAgent(t, "bob", false)
	captured := evil.get("/buddi/agents/bob")
	b.knowsAgent(t, "bob") // added through a: b learns of it by its watch
	b.Must(t, "DELETE", "/api/agents/bob", nil)
	a.Task(t, "ada", "probe", 5)
	for _, m := range both {
		untilCode(t, m, bob, messages.CodeUnauthorized)
	}
	evil.put("/buddi/agents/bob", captured)
	for _, m := range both {
		m.refused(t, "/buddi/agents/bob", olderWhy)
		if r := m.Act(t, bob, "probe", map[string]any{"action": "observe"}); r.Code() != messages.CodeUnauthorized {
			t.Fatalf("bob's token, after bob's record was written back, answered %q through %s, want unauthorized", r.Code(), m.name)
		}
	}

	const budget = 20
	a.Task(t, "ada", "s1", budget)
	for range 2 {
		a.Observe(t, a.agent, "s1")
	}
	early := evil.get("/buddi/steps/s1")
	for range 3 {
		a.Observe(t, a.agent, "s1")
	}
	evil.put("/buddi/steps/s1", early)
	for _, m := range both {
		m.refused(t, "/buddi/steps/s1", olderWhy)
	}
	home := homeOf(t, etcd, "s1", a, b)
	home.kill9()
	via := others(home, a, b)[0]
	for deadline := time.Now().Add(patience); ; time.Sleep(50 * time.Millisecond) {
		r := via.Act(t, via.agent, "s1", map[string]any{"action": "observe"})
		if r.OK {
			t.Fatalf("s1 answered through %s with %+v after its earlier count of steps was written back; want its adoption refused", via.name, r)
		}
		if r.Code() == messages.CodeNoTask || (r.Code() == messages.CodeClusterDown && strings.Contains(r.Error.Message, "older than")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("s1 through %s answers %q", via.name, r.Code())
		}
	}
	if n := refusals(via, "/buddi/steps/s1"); n != 1 {
		t.Errorf("%s logged the steps written back %d times, want once:\n%s", via.name, n, via.logs.String())
	}
}

// untilCode acts as token through m until it answers want.
func untilCode(t testing.TB, m *member, token string, want messages.Code) {
	t.Helper()
	for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
		r := m.Act(t, token, "probe", map[string]any{"action": "observe"})
		if r.Code() == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s answers %q, want %q", m.name, r.Code(), want)
		}
	}
}

// knowsAgent polls the owner's list of agents on m until it holds name:
// an agent added through another member reaches m by its watch of etcd.
func (m *member) knowsAgent(t testing.TB, name string) {
	t.Helper()
	for deadline := time.Now().Add(patience); ; time.Sleep(20 * time.Millisecond) {
		var list messages.AgentList
		if err := m.Must(t, "GET", "/api/agents", nil).Decode(&list); err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(list, func(ag messages.AgentView) bool { return ag.Name == name }) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s does not list the agent %s, added through another member", m.name, name)
		}
	}
}

// refusals counts the refusals m logged of the record at key.
func refusals(m *member, key string) int {
	n := 0
	for line := range strings.Lines(m.logs.String()) {
		if strings.Contains(line, "a record in etcd is refused") && strings.Contains(line, key+" ") {
			n++
		}
	}
	return n
}

// A member that starts after older signed records were written back (one
// with a new data directory, and one that was down while they changed)
// learns the newest generations from the running member before it reads
// etcd: it refuses and logs the removed agent's record written back, and
// sees the owner's Stop. With no member running, a member with a new data
// directory does not start, and says why, unless told to trust etcd.
func TestAMemberThatStartsLearnsWhatTheRunningMembersHaveSeen(t *testing.T) {
	etcd, a, b := two(t)
	evil := newAttacker(t, etcd)
	b.stop()
	bob := a.AddAgent(t, "bob", false)
	captured := evil.get("/buddi/agents/bob")
	notStopped := evil.get("/buddi/stop")
	a.Must(t, "DELETE", "/api/agents/bob", nil)
	if out := a.cli(t, "stop"); !strings.Contains(out, "All browser access is stopped") {
		t.Fatalf("buddi stop said %q", out)
	}
	a.eventually(t, messages.CodeStopped)
	evil.put("/buddi/agents/bob", captured)
	evil.put("/buddi/stop", notStopped)
	a.refused(t, "/buddi/agents/bob", olderWhy)

	b.start(t) // its generations file never saw bob
	fresh := startMember(t, etcd, "fresh", a.agent)
	for _, m := range []*member{b, fresh} {
		m.refused(t, "/buddi/agents/bob", olderWhy)
		if !strings.Contains(m.logs.String(), "learned the generations of the cluster's records from the other members") {
			t.Errorf("%s did not say it learned the generations from the other members:\n%s", m.name, m.logs.String())
		}
		var list messages.AgentList
		if err := m.Must(t, "GET", "/api/agents", nil).Decode(&list); err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(list, func(ag messages.AgentView) bool { return ag.Name == "bob" }) {
			t.Fatalf("%s lists bob, whose record was written back after his removal", m.name)
		}
		if r := m.Act(t, bob, "probe", map[string]any{"action": "observe"}); r.Code() != messages.CodeUnauthorized {
			t.Fatalf("bob's token through %s answered %q, want unauthorized", m.name, r.Code())
		}
		if r := m.probe(t); r.Code() != messages.CodeStopped {
			t.Fatalf("%s answers %q, want the owner's Stop", m.name, r.Code())
		}
	}

	for _, m := range []*member{a, b, fresh} {
		m.stop()
	}
	said := refusedStart(t, etcd, "BUDDI_CLUSTER_SECRET="+secretFor(t, etcd))
	if !strings.Contains(said, "no other member answered") || !strings.Contains(said, "--cluster-trust-etcd") {
		t.Fatalf("a member with a new data directory and no member running said %q; want it refused, naming --cluster-trust-etcd", said)
	}
	trusting := startMember(t, etcd, "trusting", a.agent, "BUDDI_CLUSTER_TRUST_ETCD=1")
	if !strings.Contains(trusting.logs.String(), "--cluster-trust-etcd: this member remembers no generation") {
		t.Fatalf("the member told to trust etcd did not say so:\n%s", trusting.logs.String())
	}
}

// An entry in protoactor's member list (unsigned, in etcd under
// /buddi/protoactor) written by a process that can write to etcd names an
// address it listens on: the members never admit it, since it cannot
// answer their sealed hello, and log it; no conversation is placed there,
// and every conversation answers through either member while it is listed.
func TestAForgedEntryInProtoactorsMemberListGetsNoConversation(t *testing.T) {
	etcd, a, b := two(t)
	both := []*member{a, b}
	evil := newAttacker(t, etcd)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	go func() { // takes connections and answers nothing
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c); _ = c.Close() }()
		}
	}()
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	p, _ := strconv.Atoi(port)
	evil.put("/buddi/protoactor/buddi/forged", map[string]any{"id": "forged", "name": "buddi", "host": host, "address": host,
		"port": p, "kinds": []string{"session"}, "alive": true})
	for _, m := range both {
		for deadline := time.Now().Add(patience); !strings.Contains(m.logs.String(), "does not prove it holds the cluster's key"); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s did not log the forged member:\n%s", m.name, m.logs.String())
			}
		}
	}
	for i := range 12 {
		conv := fmt.Sprintf("forged-%d", i)
		a.Task(t, "ada", conv, 10)
		via := both[i%2]
		via.Observe(t, via.agent, conv)
		home := homeOf(t, etcd, conv, a, b)
		if s, ok := stepsOf(t, home, conv); !ok || s.StepsUsed != 1 {
			t.Fatalf("%s, the member etcd names for %s, lists %+v (found %v); want its one step", home.name, conv, s, ok)
		}
	}
}

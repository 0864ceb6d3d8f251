package cluster_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/secret"
)

// A member without the cluster's secret does not start, and says how to
// make one and where to copy it.
func TestAMemberWithoutTheClustersSecretDoesNotStart(t *testing.T) {
	etcd := etcdtest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "serve", "--cluster", "--data", dir, "--addr", daemontest.FreeAddr(t))
	cmd.Env = append(cleanEnv(), "BUDDI_DRIVER=sim", "BUDDI_CLUSTER_ETCD="+strings.TrimPrefix(etcd.Endpoint(), "http://"))
	out, err := cmd.CombinedOutput()
	want := "no cluster secret at " + filepath.Join(dir, "cluster.secret") + "; run `buddi cluster init` on one member and copy the file"
	if err == nil || ctx.Err() != nil || !strings.Contains(string(out), want) {
		t.Fatalf("a member without the secret ended with %v, saying %q; want it refused, saying %q", err, out, want)
	}
	t.Logf("a member without the cluster's secret said: %s", out)
}

// A process that can write to etcd but lacks the cluster's secret cannot
// add an agent, lift the owner's Stop or delete it: every member refuses
// each record and logs it, an agent written that way has no token that
// works, and the Stop holds until the owner resumes through a member.
func TestARawEtcdWriteCannotAddAnAgentOrLiftTheStop(t *testing.T) {
	etcd := etcdtest.Start(t)
	a := startMember(t, etcd, "a", "")
	a.agent = a.AddAgent(t, "ada", false)
	b := startMember(t, etcd, "b", a.agent)
	both := []*member{a, b}
	for _, m := range both {
		m.eventually(t, messages.CodeNoTask)
	}
	raw, err := clientv3.New(clientv3.Config{Endpoints: []string{etcd.Endpoint()}, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	refusedBy := func(key string) {
		t.Helper()
		for _, m := range both {
			within(t, m.name+" refusing "+key, func() bool {
				logs := m.logs.String()
				return strings.Contains(logs, "refused a record in etcd that is not signed with the cluster's secret") && strings.Contains(logs, "key="+key+" ")
			})
		}
	}

	const token = "ba_chosen-by-the-attacker"
	eve, _ := json.Marshal(map[string]any{"id": "eve-1", "name": "eve", "tokenHash": secret.Hash(token),
		"grants": []string{"browser.*"}, "autoApprove": true, "created": time.Now().UTC()})
	if _, err := raw.Put(context.Background(), "/buddi/agents/eve", string(eve)); err != nil {
		t.Fatal(err)
	}
	refusedBy("/buddi/agents/eve")
	for _, m := range both {
		if r := m.Act(t, token, "eve-conv", map[string]any{"action": "observe"}); r.Code() != messages.CodeUnauthorized {
			t.Fatalf("the agent written raw called through %s and was answered %q; want unauthorized", m.name, r.Code())
		}
		if r := m.probe(t); r.Code() != messages.CodeNoTask {
			t.Fatalf("ada through %s was answered %q; want no_task", m.name, r.Code())
		}
	}

	a.Must(t, "POST", "/api/browser/stop", nil)
	for _, m := range both {
		m.eventually(t, messages.CodeStopped)
	}
	lift, _ := json.Marshal(map[string]any{"v": 1, "stopped": false, "at": time.Now().UTC()})
	if _, err := raw.Put(context.Background(), "/buddi/stop", string(lift)); err != nil {
		t.Fatal(err)
	}
	refusedBy("/buddi/stop")
	for _, m := range both {
		if r := m.probe(t); r.Code() != messages.CodeStopped {
			t.Fatalf("after a raw resume %s answered %q; want stopped", m.name, r.Code())
		}
	}
	before := strings.Count(a.logs.String(), "key=/buddi/stop ")
	if _, err := raw.Delete(context.Background(), "/buddi/stop"); err != nil {
		t.Fatal(err)
	}
	within(t, "a refusing the deletion", func() bool { return strings.Count(a.logs.String(), "key=/buddi/stop ") > before })
	if r := a.probe(t); r.Code() != messages.CodeStopped {
		t.Fatalf("after the flag was deleted a answered %q; want stopped", r.Code())
	}

	if out := b.cli(t, "resume", "--all"); !strings.Contains(out, "resumed") {
		t.Fatalf("buddi resume --all through b said %q", out)
	}
	for _, m := range both {
		m.eventually(t, messages.CodeNoTask)
	}
}

// within waits for ok, failing t after patience.
func within(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(patience); !ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", patience, what)
		}
	}
}

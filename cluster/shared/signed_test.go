package shared_test

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

func openLogged(t *testing.T, srv *etcdtest.Server, secret *shared.Secret) (*shared.Store, *etcdtest.Logs) {
	t.Helper()
	logs := &etcdtest.Logs{}
	s, err := shared.Open(ctxFor(t), shared.Config{Endpoints: []string{srv.Endpoint()}, Prefix: prefix,
		Secret: secret, Log: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	if err := s.CheckSecret(ctxFor(t)); err != nil {
		t.Fatal(err)
	}
	return s, logs
}

// A process that writes to etcd without the cluster's secret cannot lift
// a Stop, delete it, add an agent or a site answer, or move a member's
// record to another name: each record is refused and logged.
func TestRecordsWrittenWithoutTheSecretAreRefusedAndLogged(t *testing.T) {
	srv := etcdtest.Start(t)
	s, logs := openLogged(t, srv, testSecret(t))
	raw, err := clientv3.New(clientv3.Config{Endpoints: []string{srv.Endpoint()}, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	put := func(key, value string) {
		t.Helper()
		if _, err := raw.Put(ctxFor(t), prefix+"/"+key, value); err != nil {
			t.Fatal(err)
		}
	}

	w := watch(t, s)
	setStop(t, s, true)
	w.waitFor(t, "the Stop", func(ev shared.Event) bool { return ev.State.Stopped && ev.Err == nil })
	for name, attack := range map[string]func(){
		"a resume written raw": func() {
			put("stop", `{"v":1,"stopped":false,"at":"`+time.Now().UTC().Format(time.RFC3339Nano)+`"}`)
		},
		"the flag deleted": func() {
			if _, err := raw.Delete(ctxFor(t), prefix+"/stop"); err != nil {
				t.Fatal(err)
			}
		},
	} {
		attack()
		ev := w.waitFor(t, name, func(ev shared.Event) bool { return ev.Err != nil })
		var malformed *shared.MalformedError
		if !ev.State.Stopped || ev.AllowsWork() || !errors.As(ev.Err, &malformed) {
			t.Fatalf("after %s the watch delivered %+v; want the Stop in force and the record refused", name, ev)
		}
		if st, err := s.Stop(ctxFor(t)); !st.Stopped || !errors.As(err, &malformed) {
			t.Fatalf("after %s the flag reads %+v, %v; want the Stop in force", name, st, err)
		}
	}

	if _, err := s.Create(ctxFor(t), shared.Agents, "owners", []byte(`{"name":"owners"}`)); err != nil {
		t.Fatal(err)
	}
	signedValue, err := raw.Get(ctxFor(t), prefix+"/agents/owners")
	if err != nil {
		t.Fatal(err)
	}
	put("agents/attacker", `{"name":"attacker","tokenHash":"abc"}`)
	put("agents/copied", string(signedValue.Kvs[0].Value)) // signed, but for another name
	put("sites/example.com", `{"site":"example.com","always":true}`)
	rs, _, err := s.List(ctxFor(t), shared.Agents)
	if err != nil || len(rs) != 1 || rs[0].Name != "owners" || string(rs[0].Value) != `{"name":"owners"}` {
		t.Fatalf("the agents listed are %+v (%v); want only the one a member wrote", rs, err)
	}
	for kind, name := range map[shared.Kind]string{shared.Agents: "attacker", shared.Sites: "example.com"} {
		var forged *shared.ForgedError
		if _, ok, err := s.Get(ctxFor(t), kind, name); ok || !errors.As(err, &forged) {
			t.Errorf("%s/%s read as found %v (%v); want a *ForgedError", kind, name, ok, err)
		}
	}
	for _, key := range []string{"/stop", "/agents/attacker", "/agents/copied", "/sites/example.com"} {
		if !strings.Contains(logs.String(), "key="+prefix+key) {
			t.Errorf("the refusal of %s was not logged; the logs:\n%s", key, logs.String())
		}
	}
	if n := strings.Count(logs.String(), "key="+prefix+"/agents/attacker "); n != 1 {
		t.Errorf("the forged agent was logged %d times; want once per revision", n)
	}
	rev := setStop(t, s, false)
	if st, err := s.Stop(ctxFor(t)); err != nil || st.Stopped || st.Rev != rev {
		t.Fatalf("after the owner's resume the flag reads %+v, %v", st, err)
	}
}

// A member given another secret than the cluster's does not join.
func TestAMemberWithAnotherSecretIsRefused(t *testing.T) {
	srv := etcdtest.Start(t)
	openLogged(t, srv, testSecret(t))
	other, err := shared.NewSecret([]byte("another cluster's secret, 32 bytes or more"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := shared.Open(ctxFor(t), shared.Config{Endpoints: []string{srv.Endpoint()}, Prefix: prefix, Secret: other})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CheckSecret(ctxFor(t)); err == nil || !strings.Contains(err.Error(), "copy the cluster.secret file of a running member") {
		t.Fatalf("a member with another secret: %v; want it refused, saying what to copy", err)
	}
}

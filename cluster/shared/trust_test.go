package shared_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// logBuf is a log that tests read; slog's handlers write from many
// goroutines.
type logBuf struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuf) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logBuf) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.buf.String(), s)
}

// openWith opens a member's Store with secret, logging to log, and joins.
func openWith(t testing.TB, srv *etcdtest.Server, secret shared.Secret, log *logBuf) (*shared.Store, error) {
	t.Helper()
	cfg := shared.Config{Endpoints: []string{srv.Endpoint()}, Prefix: prefix, Secret: secret}
	if log != nil {
		cfg.Log = slog.New(slog.NewTextHandler(log, nil))
	}
	s, err := shared.Open(ctxFor(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, s.Join(ctxFor(t))
}

// rawClient is a process that reaches etcd without the cluster's secret.
func rawClient(t testing.TB, srv *etcdtest.Server) *clientv3.Client {
	t.Helper()
	raw, err := clientv3.New(clientv3.Config{Endpoints: []string{srv.Endpoint()}, DialTimeout: 10 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = raw.Close() })
	return raw
}

// Records written into etcd by something without the secret are refused
// on every read and list, and each is logged once: an agent, a task and a
// site answer count as absent, steps as an unknown budget.
func TestRecordsWrittenWithoutTheSecretAreRefusedAndLogged(t *testing.T) {
	srv := etcdtest.Start(t)
	log := &logBuf{}
	s, err := openWith(t, srv, testSecret, log)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctxFor(t), shared.Agents, "real", []byte(`{"name":"real"}`)); err != nil {
		t.Fatal(err)
	}
	raw := rawClient(t, srv)
	for _, kind := range []shared.Kind{shared.Agents, shared.Tasks, shared.Sites, shared.Steps} {
		if _, err := raw.Put(ctxFor(t), prefix+"/"+string(kind)+"/forged", `{"name":"forged","used":0}`); err != nil {
			t.Fatal(err)
		}
	}
	for _, kind := range []shared.Kind{shared.Agents, shared.Tasks, shared.Sites} {
		for range 2 {
			if rec, ok, err := s.Get(ctxFor(t), kind, "forged"); ok || err != nil {
				t.Fatalf("a forged %s reads as %q (%v), want absent", kind, rec.Value, err)
			}
			rs, _, err := s.List(ctxFor(t), kind)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if r.Name == "forged" {
					t.Fatalf("the list of %s holds the forged record", kind)
				}
			}
		}
	}
	if rs, _, _ := s.List(ctxFor(t), shared.Agents); len(rs) != 1 || rs[0].Name != "real" || string(rs[0].Value) != `{"name":"real"}` {
		t.Fatalf("the agents listed are %+v, want the signed one alone, its value as written", rs)
	}
	if _, err := s.StepsOf(ctxFor(t), "forged", time.Now()); !errors.Is(err, shared.ErrForged) {
		t.Fatalf("forged steps: %v, want ErrForged (an unknown budget, not a fresh one)", err)
	}
	for _, kind := range []shared.Kind{shared.Agents, shared.Tasks, shared.Sites, shared.Steps} {
		if n := log.count(prefix + "/" + string(kind) + "/forged"); n != 1 {
			t.Errorf("the forged %s was logged %d times, want once: %s", kind, n, log.buf.String())
		}
	}
	// a signed value moved to another key does not verify there
	got, err := raw.Get(ctxFor(t), prefix+"/agents/real")
	if err != nil || len(got.Kvs) != 1 {
		t.Fatal(got, err)
	}
	if _, err := raw.Put(ctxFor(t), prefix+"/agents/moved", string(got.Kvs[0].Value)); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.Get(ctxFor(t), shared.Agents, "moved"); ok {
		t.Fatal("a signed agent copied to another name was taken")
	}
}

// A raw resume, a raw delete and an older signed resume written back each
// leave the Stop in force, for a read and for a watch; the owner's resume
// lifts it.
func TestOnlyTheOwnersResumeLiftsAStop(t *testing.T) {
	srv := etcdtest.Start(t)
	s := open(t, srv)
	raw := rawClient(t, srv)
	setStop(t, s, false)
	captured, err := raw.Get(ctxFor(t), prefix+"/stop")
	if err != nil || len(captured.Kvs) != 1 {
		t.Fatal(captured, err)
	}
	setStop(t, s, true)
	w := watch(t, s)
	attacks := map[string]func() error{
		"an unsigned resume": func() error {
			_, err := raw.Put(ctxFor(t), prefix+"/stop", `{"v":2,"stopped":false,"at":"2026-12-01T00:00:00Z","seq":1000}`)
			return err
		},
		"a delete": func() error {
			_, err := raw.Delete(ctxFor(t), prefix+"/stop")
			return err
		},
		"an older signed resume written back": func() error {
			_, err := raw.Put(ctxFor(t), prefix+"/stop", string(captured.Kvs[0].Value))
			return err
		},
	}
	for name, attack := range attacks {
		if err := attack(); err != nil {
			t.Fatal(err)
		}
		rev, err := raw.Get(ctxFor(t), prefix+"/stop")
		if err != nil {
			t.Fatal(err)
		}
		// refused (a *MalformedError), or already signed again by the
		// watch as the Stop it knew (a replay is repaired)
		var malformed *shared.MalformedError
		st, err := s.Stop(ctxFor(t))
		if !st.Stopped || (!strings.Contains(name, "older") && !errors.As(err, &malformed)) {
			t.Errorf("after %s the flag reads %+v (%v), want stopped", name, st, err)
		}
		ev := w.waitFor(t, "after "+name, func(ev shared.Event) bool { return ev.State.Rev >= rev.Header.Revision })
		if ev.AllowsWork() {
			t.Errorf("after %s the watch allows work: %+v", name, ev)
		}
	}
	// a member that joins later, and so never saw the newer flag, still
	// refuses the unsigned ones
	later := open(t, srv)
	if _, err := raw.Put(ctxFor(t), prefix+"/stop", `{"v":2,"stopped":false,"at":"2026-12-01T00:00:00Z","seq":1000}`); err != nil {
		t.Fatal(err)
	}
	if st, _ := later.Stop(ctxFor(t)); !st.Stopped {
		t.Fatal("a member that joined later took an unsigned resume")
	}
	rev := setStop(t, s, false)
	for _, m := range []*shared.Store{s, later} {
		if st, err := m.Stop(ctxFor(t)); err != nil || st.Stopped || st.Rev != rev {
			t.Fatalf("after the owner's resume the flag reads %+v (%v)", st, err)
		}
	}
	w.waitFor(t, "the owner's resume", func(ev shared.Event) bool { return ev.AllowsWork() && ev.State.Rev == rev })
}

// A member with another secret does not join, and says what to copy.
func TestAMemberWithAnotherSecretDoesNotJoin(t *testing.T) {
	srv := etcdtest.Start(t)
	open(t, srv)
	_, err := openWith(t, srv, secretOf(2), nil)
	var mismatch *shared.SecretMismatchError
	if !errors.As(err, &mismatch) || !strings.Contains(err.Error(), "copy the cluster.secret file of a running member") {
		t.Fatalf("a member with another secret joined: %v", err)
	}
	if _, err := openWith(t, srv, testSecret, nil); err != nil {
		t.Fatalf("a member with the cluster's secret: %v", err)
	}
}

// cluster init's file: made once, owner-only; a file readable by others,
// one of another size and a missing one are refused with a sentence.
func TestTheSecretFileIsMadeOnceAndKeptPrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, shared.SecretFile)
	if err := shared.WriteSecret(path); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 || info.Size() != shared.SecretSize {
		t.Fatalf("the secret file is %v (%v), want %d bytes, mode 0600", info, err, shared.SecretSize)
	}
	first, _ := os.ReadFile(path)
	if err := shared.WriteSecret(path); !errors.Is(err, shared.ErrSecretExists) {
		t.Fatalf("a second init over the file: %v, want ErrSecretExists", err)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(first, again) {
		t.Fatal("a second init changed the secret")
	}
	if _, err := shared.ReadSecret(path); err != nil {
		t.Fatal(err)
	}
	short := filepath.Join(dir, "short")
	_ = os.WriteFile(short, []byte("abc"), 0o600)
	open := filepath.Join(dir, "open")
	_ = os.WriteFile(open, first, 0o640)
	for name, c := range map[string]struct{ path, says string }{
		"missing":         {filepath.Join(dir, "none"), "buddi cluster init"},
		"group-readable":  {open, "chmod 600"},
		"of another size": {short, "copy the file"},
	} {
		_, err := shared.ReadSecret(c.path)
		var se *shared.SecretError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("a %s secret: %v, want a sentence saying %q", name, err, c.says)
		}
	}
}

// BenchmarkSignedRecordWrite measures one signed record written to etcd
// (signing included) and read back verified, for comparison with
// BenchmarkSignVerify's cost alone.
func BenchmarkSignedRecordWrite(b *testing.B) {
	s := open(b, etcdtest.Start(b))
	ctx := context.Background()
	v := []byte(`{"site":"https://example.com","answer":"always","at":"2026-12-01T00:00:00Z"}`)
	for b.Loop() {
		if _, _, err := s.Swap(ctx, shared.Sites, "bench", v); err != nil {
			b.Fatal(err)
		}
	}
}

// Plaintext etcd is refused beyond loopback: which endpoints a member
// would speak to in the clear off this machine.
func TestPlaintextEtcdBeyondLoopbackIsNamed(t *testing.T) {
	cases := map[string]struct {
		endpoint string
		withTLS  bool
		named    bool
	}{
		"loopback address, no scheme":  {"127.0.0.1:2379", false, false},
		"localhost over http":          {"http://localhost:2379", false, false},
		"IPv6 loopback":                {"http://[::1]:2379", false, false},
		"another host over http":       {"http://10.0.0.5:2379", false, true},
		"another host, no scheme":      {"etcd.internal:2379", false, true},
		"another host, no scheme, TLS": {"etcd.internal:2379", true, false},
		"another host over https":      {"https://10.0.0.5:2379", false, false},
		"http:// beside TLS files":     {"http://10.0.0.5:2379", true, true},
	}
	for name, c := range cases {
		got := shared.PlaintextBeyondLoopback([]string{c.endpoint}, c.withTLS)
		if (len(got) == 1) != c.named {
			t.Errorf("%s (%s, TLS %v): named %v, want named %v", name, c.endpoint, c.withTLS, got, c.named)
		}
	}
}

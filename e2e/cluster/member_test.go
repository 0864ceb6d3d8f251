package cluster_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	clustermember "github.com/buddi-dev/buddi/cluster/member"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/instance"
	"github.com/buddi-dev/buddi/messages"
)

// patience bounds every wait for a condition; nothing asserts on timing.
const patience = 45 * time.Second

// member is one `buddi serve --cluster` process and the token of the
// cluster's agent it calls with (agents are shared through etcd). It keeps
// its data directory and address across restarts.
type member struct {
	*daemontest.Client
	name  string
	dir   string
	addr  string
	etcd  *etcdtest.Server
	agent string   // the agent's token
	env   []string // more of serve's environment
	// wrap is a prefix of serve's command line, such as one that runs it
	// as a pod's container (k8stest.InPod).
	wrap []string
	// probeConv is a conversation this member holds, for the Stop benchmark.
	probeConv string

	cmd  *exec.Cmd
	logs *daemontest.Buffer
}

// startMember starts a member called name that calls as the agent whose
// token is agent, with env in serve's environment.
func startMember(t testing.TB, etcd *etcdtest.Server, name, agent string, env ...string) *member {
	t.Helper()
	m := &member{name: name, dir: filepath.Join(t.TempDir(), name), addr: daemontest.FreeAddr(t), etcd: etcd, agent: agent, env: env}
	m.start(t)
	return m
}

// start runs buddi serve and returns once it says it serves, which it does
// only after it has read the shared Stop and registered.
func (m *member) start(t testing.TB) {
	t.Helper()
	m.logs = &daemontest.Buffer{}
	args := append(slices.Clone(m.wrap), bin, "serve", "--cluster", "--data", m.dir, "--addr", m.addr)
	m.cmd = exec.Command(args[0], args[1:]...)
	m.cmd.Env = append(cleanEnv(), "BUDDI_DRIVER=sim", "BUDDI_LOG_LEVEL=info",
		"BUDDI_CLUSTER_ETCD="+strings.TrimPrefix(strings.TrimPrefix(m.etcd.Endpoint(), "http://"), "https://"),
		"BUDDI_CLUSTER_SECRET="+secretFor(t, m.etcd))
	m.cmd.Env = append(m.cmd.Env, m.env...)
	stdout, err := m.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	m.cmd.Stderr = m.logs
	m.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := m.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	logs := m.logs
	t.Cleanup(func() {
		m.stop()
		if t.Failed() {
			t.Logf("%s's logs:\n%s", m.name, logs.String())
		}
	})
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if !strings.Contains(line, "serving at") {
		t.Fatalf("%s said %q; logs:\n%s", m.name, line, m.logs.String())
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	token, err := instance.ReadOwnerToken(m.dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Client = daemontest.NewClient("http://"+m.addr, token)
}

// stop ends serve with SIGTERM (a clean shutdown: it leaves the member
// list at once), killing it if it has not gone in 30 seconds.
func (m *member) stop() {
	if m.cmd == nil || m.cmd.ProcessState != nil {
		return
	}
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = m.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = m.cmd.Process.Kill()
		<-done
	}
	m.HTTP.CloseIdleConnections()
}

// kill9 ends serve without letting it clean up.
func (m *member) kill9() {
	_ = m.cmd.Process.Kill()
	_ = m.cmd.Wait()
	m.HTTP.CloseIdleConnections()
}

// probe is what the member answers the agent's act: no_task while it takes
// work, stopped under a Stop, cluster_unreachable without etcd.
func (m *member) probe(t testing.TB) *daemontest.Reply {
	t.Helper()
	r, err := m.Do("POST", "/api/tools/browser.act", m.agent, map[string]any{"conversation": "probe", "input": map[string]any{"action": "observe"}})
	if err != nil {
		t.Fatalf("%s: %v", m.name, err)
	}
	return r
}

// eventually polls the member's answer until it carries want.
func (m *member) eventually(t testing.TB, want messages.Code) *daemontest.Reply {
	t.Helper()
	var r *daemontest.Reply
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if r = m.probe(t); r.Code() == want {
			return r
		}
	}
	t.Fatalf("%s answers %q, want %q", m.name, r.Code(), want)
	return nil
}

// ownerGet GETs path from the member as its owner; the caller closes the
// body.
func (m *member) ownerGet(t testing.TB, path string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://"+m.addr+path, nil)
	req.Header.Set("Authorization", "Bearer "+m.Owner)
	resp, err := m.HTTP.Do(req)
	if err != nil {
		t.Fatalf("%s: %v", m.name, err)
	}
	return resp
}

// health is the member's /healthz as the owner sees it.
func (m *member) health(t testing.TB) messages.Health {
	t.Helper()
	resp := m.ownerGet(t, "/healthz")
	defer resp.Body.Close()
	var h messages.Health
	if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
		t.Fatalf("%s's health: %v", m.name, err)
	}
	if h.Cluster == nil {
		t.Fatalf("%s's health has no cluster part", m.name)
	}
	return h
}

// healthUntil polls the member's /healthz until ok holds of it.
func (m *member) healthUntil(t testing.TB, ok func(messages.Health) bool) messages.Health {
	t.Helper()
	var h messages.Health
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if h = m.health(t); ok(h) {
			return h
		}
	}
	t.Fatalf("%s's health never came to what the test waits for: %+v", m.name, h.Cluster)
	return h
}

// routesTo waits until m places conversations on n members (itself
// included), each of which proved it holds the cluster's key: until then
// members may not agree on where a conversation belongs.
func (m *member) routesTo(t testing.TB, n int) {
	t.Helper()
	m.healthUntil(t, func(h messages.Health) bool { return len(h.Cluster.Routes) == n })
}

// id is the member id its data directory holds.
func (m *member) id(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(m.dir, clustermember.IDFile))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// listsExactly polls m's /healthz until its members are exactly want,
// each at its own address and m marked as itself.
func (m *member) listsExactly(t testing.TB, want ...*member) {
	t.Helper()
	var got []messages.ClusterMember
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = m.health(t).Cluster.Members; sameMembers(t, m, got, want) {
			return
		}
	}
	t.Fatalf("%s lists %+v; want %d members", m.name, got, len(want))
}

func sameMembers(t testing.TB, self *member, got []messages.ClusterMember, want []*member) bool {
	if len(got) != len(want) {
		return false
	}
	byID := map[string]messages.ClusterMember{}
	for _, g := range got {
		byID[g.ID] = g
	}
	for _, w := range want {
		g, ok := byID[w.id(t)]
		if !ok || g.Address != w.addr || g.Self != (w == self) || g.Capacity.Sessions.Total == 0 {
			return false
		}
	}
	return true
}

// cli runs a buddi command against the member's data directory.
func (m *member) cli(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append(args, "--data", m.dir)...)
	cmd.Env = cleanEnv()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("buddi %s on %s: %v\n%s", strings.Join(args, " "), m.name, err, out)
	}
	return string(out)
}

// secrets are the secret files of the clusters the tests run, by their
// etcd: `buddi cluster init` made once per cluster, copied to no one (the
// members of a test share one machine and name the file).
var secrets sync.Map // *etcdtest.Server → path

// secretFor is the secret file of the cluster whose etcd is etcd.
func secretFor(t testing.TB, etcd *etcdtest.Server) string {
	t.Helper()
	if p, ok := secrets.Load(etcd); ok {
		return p.(string)
	}
	path := filepath.Join(t.TempDir(), "cluster.secret")
	cmd := exec.Command(bin, "cluster", "init", "--out", path)
	cmd.Env = cleanEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("buddi cluster init: %v\n%s", err, out)
	}
	p, _ := secrets.LoadOrStore(etcd, path)
	return p.(string)
}

// cleanEnv is this process's environment without buddi's own settings.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "BUDDI_") {
			out = append(out, kv)
		}
	}
	return out
}

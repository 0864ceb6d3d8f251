package cluster_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// Members given the cluster's CA and a certificate of their own reach an
// etcd that admits only the CA's certificates, and each other over TLS:
// a conversation started through one is one session called through the
// other. A member started without the files does not start, and says
// that etcd does not answer and which settings give TLS.
func TestMembersWithTheClustersCertificatesSpeakTLS(t *testing.T) {
	pki := etcdtest.NewPKI(t)
	etcd := etcdtest.StartTLS(t, pki)
	files := func(name string) []string {
		cert, key := pki.Issue(t, name)
		return []string{"BUDDI_CLUSTER_CA=" + pki.CA, "BUDDI_CLUSTER_CERT=" + cert, "BUDDI_CLUSTER_KEY=" + key}
	}
	a := startMember(t, etcd, "a", "", files("a")...)
	a.agent = a.AddAgent(t, "ada", false)
	b := startMember(t, etcd, "b", a.agent, files("b")...)
	for _, m := range []*member{a, b} {
		m.eventually(t, messages.CodeNoTask)
		m.listsExactly(t, a, b)
	}
	a.Task(t, "ada", "s1", 20)
	for _, m := range []*member{b, a, b} {
		m.Observe(t, m.agent, "s1")
	}
	held := 0
	for _, m := range []*member{a, b} {
		s, ok := stepsOf(t, m, "s1")
		if !ok || s.StepsUsed != 3 {
			t.Fatalf("%s lists s1 as %+v (found %v); want one session with 3 steps used", m.name, s, ok)
		}
		held += m.health(t).Capacity.Sessions.InUse
	}
	if held != 1 {
		t.Fatalf("a and b hold %d sessions for s1; want 1", held)
	}

	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--cluster", "--data", t.TempDir(), "--addr", daemontest.FreeAddr(t))
	cmd.Env = append(cleanEnv(), "BUDDI_DRIVER=sim", "BUDDI_CLUSTER_ETCD="+strings.TrimPrefix(etcd.Endpoint(), "https://"),
		"BUDDI_CLUSTER_SECRET="+secretFor(t, etcd)) // the secret, but not the certificates
	out, err := cmd.CombinedOutput()
	if err == nil || ctx.Err() != nil || !strings.Contains(string(out), "does not answer") || !strings.Contains(string(out), "BUDDI_CLUSTER_CA") {
		t.Fatalf("a member without the cluster's certificates ended with %v, saying %q; want it refused, naming the TLS settings", err, out)
	}
	t.Logf("a member without the cluster's certificates said: %s", out)
}

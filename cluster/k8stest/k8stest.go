// Package k8stest runs a real Kubernetes API server for tests: the
// kube-apiserver of Kubernetes' own source (`make test-k8s` builds it
// into bin/ from the version tools/kube pins), on 127.0.0.1 with a free
// port, keeping its objects in a test's etcd under a prefix of its own,
// with RBAC deciding every request. No kubelet runs: the test plays it,
// giving a process a pod's host name and service account (InPod) and
// setting the pod's status (SetReady).
package k8stest

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
)

// Namespace is where the pods and the service account live.
const Namespace = "default"

// startDeadline bounds how long kube-apiserver may take to be ready.
const startDeadline = 90 * time.Second

// Server is one kube-apiserver process, stopped at the test's cleanup.
type Server struct {
	// Host and Port are where it serves HTTPS, as a pod sees them in
	// KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT.
	Host, Port string
	// Admin is a client in group system:masters.
	Admin *kubernetes.Clientset

	dir       string
	ca        []byte
	cert, key string            // the server's certificate and key
	accounts  map[string]string // service account name to its token
}

// Start runs kube-apiserver on etcd (a client URL) and returns once it is
// ready. Each of accounts is a service account in Namespace the server
// knows a token of, for InPod; the accounts themselves are made by
// whatever the test applies.
func Start(t testing.TB, etcd string, accounts ...string) *Server {
	t.Helper()
	bin := binary(t)
	dir := t.TempDir()
	s := &Server{Host: "127.0.0.1", dir: dir, accounts: map[string]string{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, s.Port, _ = net.SplitHostPort(l.Addr().String())
	_ = l.Close()
	s.writeKeys(t)
	admin := s.writeTokens(t, accounts)
	logPath := filepath.Join(dir, "kube-apiserver.log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin,
		"--etcd-servers="+etcd, "--etcd-prefix=/k8stest",
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", "--secure-port="+s.Port,
		"--cert-dir="+filepath.Join(dir, "certs"),
		"--tls-cert-file="+s.cert, "--tls-private-key-file="+s.key,
		"--token-auth-file="+filepath.Join(dir, "tokens.csv"),
		"--authorization-mode=RBAC", "--anonymous-auth=false",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file="+filepath.Join(dir, "sa.pub"),
		"--service-account-signing-key-file="+filepath.Join(dir, "sa.key"),
		"--service-cluster-ip-range=10.96.0.0/24",
		"--enable-priority-and-fairness=false", "--profiling=false",
		// No kubernetes service endpoints for a loopback address.
		"--endpoint-reconciler-type=none",
	)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("kube-apiserver did not start: %v", err)
	}
	_ = logf.Close()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			if b, err := os.ReadFile(logPath); err == nil {
				t.Logf("kube-apiserver's log (its end):\n%s", b[max(0, len(b)-6000):])
			}
		}
	})
	s.Admin = kubernetes.NewForConfigOrDie(s.config(admin))
	s.waitReady(t, admin, done)
	return s
}

// writeTokens writes the server's static tokens: one for an admin, which
// it returns, and one for each service account.
func (s *Server) writeTokens(t testing.TB, accounts []string) (admin string) {
	t.Helper()
	admin = token()
	tokens := fmt.Sprintf("%s,admin,admin,\"system:masters\"\n", admin)
	for _, a := range accounts {
		s.accounts[a] = token()
		tokens += fmt.Sprintf("%s,system:serviceaccount:%s:%s,%s,\"system:serviceaccounts,system:serviceaccounts:%s\"\n",
			s.accounts[a], Namespace, a, a, Namespace)
	}
	etcdtest.WriteFile(t, filepath.Join(s.dir, "tokens.csv"), []byte(tokens))
	return admin
}

// binary finds kube-apiserver: $BUDDI_KUBE_APISERVER, else bin/ at the
// module's root.
func binary(t testing.TB) string {
	t.Helper()
	if b := os.Getenv("BUDDI_KUBE_APISERVER"); b != "" {
		return b
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("k8stest: no go.mod above the test's directory; set BUDDI_KUBE_APISERVER")
		}
		dir = up
	}
	bin := filepath.Join(dir, "bin", "kube-apiserver")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("No kube-apiserver at %s: `make test-k8s` builds it, or set BUDDI_KUBE_APISERVER. %v", bin, err)
	}
	return bin
}

func (s *Server) config(bearer string) *rest.Config {
	return &rest.Config{Host: "https://" + net.JoinHostPort(s.Host, s.Port), BearerToken: bearer,
		TLSClientConfig: rest.TLSClientConfig{CAData: s.ca}}
}

func (s *Server) waitReady(t testing.TB, admin string, exited <-chan struct{}) {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(s.ca)
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	deadline := time.Now().Add(startDeadline)
	var last string
	for time.Now().Before(deadline) {
		req, _ := http.NewRequest(http.MethodGet, "https://"+net.JoinHostPort(s.Host, s.Port)+"/readyz", nil)
		req.Header.Set("Authorization", "Bearer "+admin)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				// The bootstrap controller makes the default namespace
				// shortly after the server is ready.
				if _, err := s.Admin.CoreV1().Namespaces().Get(context.Background(), Namespace, metav1.GetOptions{}); err == nil {
					return
				}
			}
			last = resp.Status
		} else {
			last = err.Error()
		}
		select {
		case <-exited:
			t.Fatalf("kube-apiserver ended before it was ready: %s", last)
		case <-time.After(200 * time.Millisecond):
		}
	}
	t.Fatalf("kube-apiserver was not ready within %v: %s", startDeadline, last)
}

// Pod makes a pod called name in Namespace, run as account, labelled
// app=buddi. It stays Pending until SetReady.
func (s *Server) Pod(t testing.TB, name, account string) {
	t.Helper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: Namespace, Labels: map[string]string{"app": "buddi"}},
		Spec: corev1.PodSpec{ServiceAccountName: account, AutomountServiceAccountToken: new(false),
			Containers: []corev1.Container{{Name: "buddi", Image: "buddi"}}},
	}
	if _, err := s.Admin.CoreV1().Pods(Namespace).Create(context.Background(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatalf("make pod %s: %v", name, err)
	}
}

// SetReady reports pod name as a kubelet would: running at 127.0.0.1
// with its container ready, or running with it not ready.
func (s *Server) SetReady(t testing.TB, name string, ready bool) {
	t.Helper()
	ctx := context.Background()
	pods := s.Admin.CoreV1().Pods(Namespace)
	pod, err := pods.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("read pod %s: %v", name, err)
	}
	now := metav1.Now()
	pod.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, PodIP: s.Host, PodIPs: []corev1.PodIP{{IP: s.Host}}, StartTime: &now,
		ContainerStatuses: []corev1.ContainerStatus{{Name: "buddi", Image: "buddi", Ready: ready,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: now}}}},
	}
	if _, err := pods.UpdateStatus(ctx, pod, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("set pod %s's status: %v", name, err)
	}
}

// Labels are pod name's labels now.
func (s *Server) Labels(t testing.TB, name string) map[string]string {
	t.Helper()
	pod, err := s.Admin.CoreV1().Pods(Namespace).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("read pod %s: %v", name, err)
	}
	return pod.Labels
}

// InPod is what runs a command as pod name's container, run as account:
// a prefix for its command line, which gives it the pod's host name and
// mounts the account's token, the server's CA and the namespace where a
// pod has them (in a mount namespace of its own), and the environment a
// pod has. It needs root (unshare).
func (s *Server) InPod(t testing.TB, name, account string) (prefix, env []string) {
	t.Helper()
	tok, ok := s.accounts[account]
	if !ok {
		t.Fatalf("k8stest: the server knows no token of %s; name it in Start", account)
	}
	secrets := filepath.Join(s.dir, "pods", name)
	if err := os.MkdirAll(secrets, 0o700); err != nil {
		t.Fatal(err)
	}
	etcdtest.WriteFile(t, filepath.Join(secrets, "token"), []byte(tok))
	etcdtest.WriteFile(t, filepath.Join(secrets, "ca.crt"), s.ca)
	etcdtest.WriteFile(t, filepath.Join(secrets, "namespace"), []byte(Namespace))
	// The mount point is made on the host; what is mounted there is seen
	// only inside the command's mount namespace.
	if err := os.MkdirAll(ServiceAccountDir, 0o755); err != nil {
		t.Fatalf("k8stest: make %s: %v", ServiceAccountDir, err)
	}
	script := `hostname "$0" && mount --bind "$1" "$2" && shift 2 && exec "$@"`
	prefix = []string{"unshare", "--uts", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, name, secrets, ServiceAccountDir}
	env = []string{"KUBERNETES_SERVICE_HOST=" + s.Host, "KUBERNETES_SERVICE_PORT=" + s.Port}
	return prefix, env
}

// ServiceAccountDir is where a pod finds its service account.
const ServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"

// writeKeys makes a CA, the server's certificate for 127.0.0.1 signed by
// it, and the key service account tokens are signed with.
func (s *Server) writeKeys(t testing.TB) {
	t.Helper()
	pki := etcdtest.NewPKI(t)
	s.ca = pki.CAPEM
	s.cert, s.key = pki.Issue(t, "kube-apiserver")
	saKey := etcdtest.Key(t)
	pub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	etcdtest.WriteFile(t, filepath.Join(s.dir, "sa.key"), etcdtest.KeyPEM(t, saKey))
	etcdtest.WriteFile(t, filepath.Join(s.dir, "sa.pub"), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}))
}

func token() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

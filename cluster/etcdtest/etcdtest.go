// Package etcdtest runs a real, single-member etcd for tests: the binary
// of Debian's etcd-server package (scripts/setup.sh installs it), on
// 127.0.0.1 with free ports and a data directory under t.TempDir(). A
// Server can be stopped and started again on the same ports and data, to
// test what clients do while etcd is away and whether writes survive.
package etcdtest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Binary is the etcd the helper runs, unless $BUDDI_ETCD names another.
const Binary = "/usr/bin/etcd"

// startDeadline bounds how long etcd may take to answer its health check.
const startDeadline = 30 * time.Second

// Server is one etcd process, stopped at the test's cleanup.
type Server struct {
	t       testing.TB
	bin     string
	dir     string
	client  string
	peer    string
	logPath string
	// With TLS: etcd's flags for it, and the health check's client.
	tlsArgs []string
	health  *tls.Config

	mu  sync.Mutex
	cmd *exec.Cmd
}

// Start starts etcd and returns once it reports itself healthy.
func Start(t testing.TB) *Server { return start(t, nil) }

// StartTLS starts etcd serving its clients over TLS with a certificate
// pki issued, and admitting only clients with a certificate pki issued.
func StartTLS(t testing.TB, pki *PKI) *Server { return start(t, pki) }

func start(t testing.TB, pki *PKI) *Server {
	t.Helper()
	bin := os.Getenv("BUDDI_ETCD")
	if bin == "" {
		bin = Binary
	}
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("No etcd at %s: install Debian's etcd-server package (scripts/setup.sh does, as does make deps) or set BUDDI_ETCD. %v", bin, err)
	}
	dir := t.TempDir()
	// Two free ports, told apart: a port just closed may be handed out
	// again at once, and etcd cannot listen twice on one.
	client, peer := FreeAddr(t), FreeAddr(t)
	for peer == client {
		peer = FreeAddr(t)
	}
	s := &Server{
		t:       t,
		bin:     bin,
		dir:     filepath.Join(dir, "data"),
		client:  map[bool]string{false: "http://", true: "https://"}[pki != nil] + client,
		peer:    "http://" + peer,
		logPath: filepath.Join(dir, "etcd.log"),
	}
	if pki != nil {
		s.tlsArgs = s.serveTLS(t, pki)
	}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() {
			if log, err := os.ReadFile(s.logPath); err == nil {
				t.Logf("etcd's log:\n%s", tail(log, 4096))
			}
		}
	})
	s.Restart()
	return s
}

// Endpoint is the client URL to give an etcd client.
func (s *Server) Endpoint() string { return s.client }

// Restart starts etcd again on the same ports and data after Stop; on a
// running Server it does nothing.
func (s *Server) Restart() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	logf, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer logf.Close()
	cmd := exec.Command(s.bin, append([]string{
		"--name", "test",
		"--data-dir", s.dir,
		"--listen-client-urls", s.client,
		"--advertise-client-urls", s.client,
		"--listen-peer-urls", s.peer,
		"--initial-advertise-peer-urls", s.peer,
		"--initial-cluster", "test=" + s.peer,
		"--initial-cluster-state", "new",
		"--initial-cluster-token", "buddi-test",
		"--logger", "zap",
		"--log-outputs", "stderr",
	}, s.tlsArgs...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("etcd did not start: %v", err)
	}
	s.cmd = cmd
	if err := waitHealthy(s.client, s.health, startDeadline); err != nil {
		s.t.Fatalf("etcd at %s did not become healthy: %v", s.client, err)
	}
}

// Stop ends etcd (SIGTERM, then SIGKILL after five seconds) and waits for
// it; on a stopped Server it does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	cmd := s.cmd
	s.cmd = nil
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// serveTLS issues etcd's certificate and one for its health check, and
// returns etcd's flags for them.
func (s *Server) serveTLS(t testing.TB, pki *PKI) []string {
	t.Helper()
	cert, key := pki.Issue(t, "etcd")
	hcert, hkey := pki.Issue(t, "etcd-health")
	pair, err := tls.LoadX509KeyPair(hcert, hkey)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pki.CAPEM)
	s.health = &tls.Config{RootCAs: roots, Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	return []string{"--cert-file", cert, "--key-file", key, "--trusted-ca-file", pki.CA, "--client-cert-auth"}
}

func waitHealthy(url string, tlsConf *tls.Config, within time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{TLSClientConfig: tlsConf}}
	var last error
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/health", nil)
		resp, err := client.Do(req)
		if err == nil {
			var body bytes.Buffer
			_, _ = body.ReadFrom(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && bytes.Contains(body.Bytes(), []byte(`"health":"true"`)) {
				client.CloseIdleConnections()
				return nil
			}
			err = fmt.Errorf("health: %d %s", resp.StatusCode, body.Bytes())
		}
		last = err
		select {
		case <-ctx.Done():
			client.CloseIdleConnections()
			return last
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

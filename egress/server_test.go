package egress_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/proxy"

	"github.com/buddi-dev/buddi/egress"
)

// echoServer is a loopback TCP server that echoes and counts connections.
type echoServer struct {
	ln       net.Listener
	accepted atomic.Int64
	wg       sync.WaitGroup
	mu       sync.Mutex
	conns    []net.Conn
}

func startEcho(t testing.TB) *echoServer { return startEchoOn(t, "127.0.0.1:0") }

func startEcho6(t testing.TB) *echoServer { return startEchoOn(t, "[::1]:0") }

func startEchoOn(t testing.TB, addr string) *echoServer {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	s := &echoServer{ln: ln}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.accepted.Add(1)
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				_, _ = io.Copy(c, c)
				_ = c.Close()
			}()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		s.mu.Lock()
		for _, c := range s.conns {
			_ = c.Close()
		}
		s.mu.Unlock()
		s.wg.Wait()
	})
	return s
}

func (s *echoServer) addr() string { return s.ln.Addr().String() }
func (s *echoServer) port() string {
	_, p, _ := net.SplitHostPort(s.addr())
	return p
}

// logBuffer collects slog output for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startGuard starts a guard that Cleanup closes, logging into the returned buffer.
func startGuard(t testing.TB, cfg egress.Config) (*egress.Guard, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	g, err := egress.Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := g.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return g, logs
}

// socksDial connects to target through the guard with a real SOCKS5 client.
func socksDial(t testing.TB, g *egress.Guard, target string) (net.Conn, error) {
	t.Helper()
	d, err := proxy.SOCKS5("tcp", g.Addr(), nil, proxy.Direct)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return d.(proxy.ContextDialer).DialContext(ctx, "tcp", target) //nolint:forcetypeassert // x/net's SOCKS5 dialer is one
}

// roundTrip writes msg and reads it back.
func roundTrip(t testing.TB, c net.Conn, msg string) {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, msg); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(c, got); err != nil {
		t.Fatal(err)
	}
	if string(got) != msg {
		t.Fatalf("echo %q, want %q", got, msg)
	}
}

// rawRequest opens a plain TCP connection to the guard, does the no-auth
// greeting, sends one SOCKS5 request, and returns the reply code and the
// connection. atyp is 1 (IPv4), 3 (name) or 4 (IPv6).
func rawRequest(t testing.TB, g *egress.Guard, cmd, atyp byte, addr []byte, port uint16) (byte, net.Conn) {
	t.Helper()
	c, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte{5, 1, 0}); err != nil {
		t.Fatal(err)
	}
	greet := make([]byte, 2)
	if _, err := io.ReadFull(c, greet); err != nil || greet[0] != 5 || greet[1] != 0 {
		t.Fatalf("greeting: %v %v", greet, err)
	}
	req := []byte{5, cmd, 0, atyp}
	if atyp == 3 {
		req = append(req, byte(len(addr)))
	}
	req = append(req, addr...)
	req = append(req, byte(port>>8), byte(port))
	if _, err := c.Write(req); err != nil {
		t.Fatal(err)
	}
	reply := make([]byte, 10)
	if _, err := io.ReadFull(c, reply[:4]); err != nil {
		t.Fatalf("reading reply: %v", err)
	}
	return reply[1], c
}

// assertClosed reads from c until it fails, and fails the test unless the
// failure is the peer closing (not our own safety deadline).
func assertClosed(t testing.TB, c net.Conn) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err := io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() { //nolint:errorlint // net.Error is an interface check
		t.Fatal("connection still open: the guard did not close it")
	}
}

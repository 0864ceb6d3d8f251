package grains_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/grains"
)

// syncBuffer is a log sink several goroutines write to.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// entryOf finds the member list's entry in etcd of the member listening
// at addr: its key and lease.
func entryOf(t *testing.T, cli *clientv3.Client, addr string) (string, clientv3.LeaseID, bool) {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	resp, err := cli.Get(context.Background(), "/buddi-test/protoactor/buddi/", clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range resp.Kvs {
		var e struct {
			Host string `json:"host"`
			Port int    `json:"port"`
		}
		if json.Unmarshal(kv.Value, &e) == nil && e.Host == host && strconv.Itoa(e.Port) == port {
			return string(kv.Key), clientv3.LeaseID(kv.Lease), true
		}
	}
	return "", 0, false
}

// A member's entry in etcd lives on a lease of MemberLease (a keep-alive
// late by protoactor's 3 s no longer loses it); when the lease lapses all
// the same, the member says so (in its log and to OnLapse) and writes its
// entry again, and never publishes itself as gone.
func TestAMembersEntryLivesOnTheMemberLeaseAndIsWrittenAgainWhenItLapses(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	logs := &syncBuffer{}
	cfg := config(srv.Endpoint(), types(t, true))
	cfg.Logger = slog.New(slog.NewTextHandler(logs, nil))
	var lapses atomic.Int32
	cfg.OnLapse = func() { lapses.Add(1) }
	m := startConfig(t, cfg)
	other := start(t, srv, types(t, true))
	waitMembers(t, m, other)

	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{srv.Endpoint()}, DialTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	for _, mm := range []*grains.Member{m, other} {
		_, lease, ok := entryOf(t, cli, mm.Address())
		if !ok {
			t.Fatalf("etcd holds no entry for the member at %s", mm.Address())
		}
		ttl, err := cli.TimeToLive(context.Background(), lease)
		if err != nil {
			t.Fatal(err)
		}
		if want := int64(grains.MemberLease / time.Second); ttl.GrantedTTL != want {
			t.Errorf("the entry of %s lives on a %d s lease, not %d s", mm.Address(), ttl.GrantedTTL, want)
		}
	}

	key, lease, _ := entryOf(t, cli, m.Address())
	if _, err := cli.Revoke(context.Background(), lease); err != nil { // the lease lapses
		t.Fatal(err)
	}
	for deadline := time.Now().Add(patience); ; time.Sleep(50 * time.Millisecond) {
		again, now, ok := entryOf(t, cli, m.Address())
		if ok && now != lease {
			if again != key {
				t.Errorf("the entry came back under %s, not %s", again, key)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the member at %s did not write its entry again within %v of its lease lapsing", m.Address(), patience)
		}
	}
	if !strings.Contains(logs.String(), "entry in etcd's member list lapsed") {
		t.Errorf("the member did not log its lapsed entry:\n%s", logs.String())
	}
	if n := lapses.Load(); n != 1 {
		t.Errorf("OnLapse was called %d times for one lapse", n)
	}
	if !slices.Contains(m.Members(), m.Address()) {
		t.Errorf("after its entry lapsed the member routes to %v, without itself", m.Members())
	}
}

// OnRoutes hears the members a member routes sessions to, as they change:
// after a second member proved it holds the cluster's key, the last call
// names both.
func TestOnRoutesHearsTheMembersRoutedTo(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	srv := etcdtest.Start(t)
	cfg := config(srv.Endpoint(), types(t, true))
	var heard atomic.Pointer[[]string]
	cfg.OnRoutes = func(addrs []string) { heard.Store(&addrs) }
	m := startConfig(t, cfg)
	other := start(t, srv, types(t, true))
	waitMembers(t, m, other)
	want := []string{m.Address(), other.Address()}
	slices.Sort(want)
	var got []string
	if p := heard.Load(); p != nil {
		got = slices.Sorted(slices.Values(*p))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("OnRoutes last heard %v; the member routes to %v", got, want)
	}
}

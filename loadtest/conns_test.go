package loadtest_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/loadtest"
)

// TestTheHarnessOpensItsConnectionsBeforeTheFirstAct counts, at a proxy in
// front of a buddi, the connections the harness opens: one for each agent
// and 64 for the owner are open before the first act, and the run opens no
// other, so the daemon's buffers for them are in every heap sample.
func TestTheHarnessOpensItsConnectionsBeforeTheFirstAct(t *testing.T) {
	d := daemontest.Start(t, "", daemon.Options{})
	proxy := proxyTo(t, d.Addr())
	var opened, beforeActs atomic.Int64
	beforeActs.Store(-1)
	front := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/tools/browser.act" {
			beforeActs.CompareAndSwap(-1, opened.Load())
		}
		proxy.ServeHTTP(w, r)
	}))
	front.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	front.Start()
	defer front.Close()
	const convs = 8
	cfg := loadtest.Config{Target: front.URL, OwnerToken: d.Owner, Conversations: convs, Duration: time.Second, OwnerRate: 2, Seed: 7}
	rep, err := loadtest.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ActsOK == 0 {
		t.Fatal("no act was answered ok")
	}
	if want := int64(convs + 64); beforeActs.Load() < want || opened.Load() != beforeActs.Load() {
		t.Fatalf("%d connections were open before the first act (want %d) and %d by the end", beforeActs.Load(), want, opened.Load())
	}
}

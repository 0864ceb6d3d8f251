package grains_test

import (
	"context"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/grains"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// Members whose transport is TLS with certificates of the cluster's CA
// reach each other's grains; a member whose transport certificate
// another CA signed (though etcd admits it) reaches none of them.
func TestMembersOverTLSAdmitOnlyTheClustersCertificates(t *testing.T) {
	if raceDetector {
		t.Skip("protoactor's cluster races on its own state; TestClusterWithoutTheRaceDetector runs this test without the race detector")
	}
	pki, foreign := etcdtest.NewPKI(t), etcdtest.NewPKI(t)
	srv := etcdtest.StartTLS(t, pki)
	load := func(p *etcdtest.PKI, name string) *shared.TLS {
		cert, key := p.Issue(t, name)
		tl, err := shared.TLSFiles{CA: p.CA, Cert: cert, Key: key}.Load()
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	member := func(name string, transport *etcdtest.PKI) *grains.Member {
		cfg := config(srv.Endpoint(), types(t, true))
		cfg.EtcdTLS, cfg.MemberTLS = load(pki, name+"-etcd").Client(), load(transport, name).Member()
		m, err := grains.Start(cfg)
		if err != nil {
			t.Fatalf("start %s: %v", name, err)
		}
		t.Cleanup(func() { m.Shutdown(false) })
		return m
	}
	a, b := member("a", pki), member("b", pki)
	waitMembers(t, a, b)
	// Of the grains b calls, one lives on a: b reached it over TLS.
	var onA string
	for i := 0; onA == "" && i < 50; i++ {
		id := "t" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		if c := count(t, b, id, &Incr{}); c.Addr == a.Address() {
			onA = id
		}
	}
	if onA == "" {
		t.Fatal("none of 50 grains called through b was placed on a")
	}
	c := member("c", foreign)
	waitMembers(t, a, b, c)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if reply, err := c.Request(ctx, onA, &Incr{}); err == nil {
		t.Fatalf("c, whose certificate another CA signed, reached %s on a: %+v", onA, reply)
	}
	// c leaves (deregistering), so that a's own lookup of onA is not
	// routed through a member a cannot reach; what c's attempt did is
	// what the count says.
	c.Shutdown(true)
	if n := count(t, a, onA, &Incr{}); n.N != 2 || n.Addr != a.Address() {
		t.Fatalf("after c's attempt %s counts %d on %s; want 2 on a", onA, n.N, n.Addr)
	}
}

package shared_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/cluster/etcdtest"
	"github.com/buddi-dev/buddi/cluster/shared"
)

// A member with a certificate of the cluster's CA reaches an etcd that
// admits only such clients, and writes there; one without a certificate,
// or with one of another CA, is refused as unreachable.
func TestEtcdOverTLSAdmitsOnlyTheClustersCertificates(t *testing.T) {
	pki := etcdtest.NewPKI(t)
	srv := etcdtest.StartTLS(t, pki)
	if !strings.HasPrefix(srv.Endpoint(), "https://") {
		t.Fatalf("etcd with TLS serves at %s", srv.Endpoint())
	}
	load := func(p *etcdtest.PKI, name string) *shared.TLS {
		cert, key := p.Issue(t, name)
		tl, err := shared.TLSFiles{CA: pki.CA, Cert: cert, Key: key}.Load()
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	openWith := func(tl *shared.TLS) (*shared.Store, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cfg := shared.Config{Endpoints: []string{srv.Endpoint()}, Prefix: prefix, Secret: testSecret, DialTimeout: 2 * time.Second}
		if tl != nil {
			cfg.TLS = tl.Client()
		}
		return shared.Open(ctx, cfg)
	}
	st, err := openWith(load(pki, "m1"))
	if err != nil {
		t.Fatalf("a member with the cluster's certificate: %v", err)
	}
	defer st.Close()
	if _, err := st.SetStop(ctxFor(t), true, time.Now()); err != nil {
		t.Fatalf("a Stop over TLS: %v", err)
	}
	var down *shared.UnreachableError
	for name, tl := range map[string]*shared.TLS{"no certificate": nil, "another CA's": load(etcdtest.NewPKI(t), "m2")} {
		st, err := openWith(tl)
		if err == nil {
			st.Close()
			t.Fatalf("a member with %s certificate reached etcd", name)
		}
		if !errors.As(err, &down) {
			t.Errorf("a member with %s certificate failed with %v, not as unreachable", name, err)
		}
	}
}

// TLS files load all three or not at all, and say which is wrong.
func TestTLSFilesSayWhatIsWrong(t *testing.T) {
	pki := etcdtest.NewPKI(t)
	cert, key := pki.Issue(t, "m1")
	for _, tc := range []struct {
		files shared.TLSFiles
		want  string
	}{
		{shared.TLSFiles{CA: pki.CA, Cert: cert}, "name all three"},
		{shared.TLSFiles{CA: cert + ".missing", Cert: cert, Key: key}, "read the cluster's CA"},
		{shared.TLSFiles{CA: key, Cert: cert, Key: key}, "holds no PEM certificate"},
		{shared.TLSFiles{CA: pki.CA, Cert: cert, Key: pki.CA}, "load this member's certificate"},
	} {
		if _, err := tc.files.Load(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v; want it to say %q", tc.files, err, tc.want)
		}
	}
}

package config

import (
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// A cluster member's settings: etcd, membership, TLS and the secret.

// etcdEndpoints reads BUDDI_CLUSTER_ETCD: host:port, comma-separated.
func etcdEndpoints(v string) ([]string, error) {
	var out []string
	for _, e := range strings.Split(v, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if _, port, err := net.SplitHostPort(e); err != nil || port == "" {
			return nil, Invalid("BUDDI_CLUSTER_ETCD: %q is not host:port; list etcd's client endpoints, comma-separated, such as 10.0.0.5:2379", e)
		}
		out = append(out, e)
	}
	if len(out) == 0 {
		return nil, Invalid("BUDDI_CLUSTER_ETCD names no endpoint; list etcd's client endpoints, comma-separated, such as 10.0.0.5:2379")
	}
	return out, nil
}

// CheckAdvertise accepts an empty address (the one serve listens on) or
// host:port with a host name or address and a port from 1 to 65535.
func CheckAdvertise(addr string) error {
	if addr == "" {
		return nil
	}
	host, port, err := net.SplitHostPort(addr)
	p, perr := strconv.Atoi(port)
	if err != nil || host == "" || strings.ContainsAny(host, "/ ") || perr != nil || p < 1 || p > 65535 {
		return Invalid("BUDDI_CLUSTER_ADVERTISE %q is not host:port; give the address other members reach this one at, such as 10.0.0.5:7777 or buddi-0.buddi:7777", addr)
	}
	return nil
}

// membership reads BUDDI_CLUSTER_MEMBERSHIP. A BUDDI_CLUSTER_CONSUL left
// from a setup that used consul is refused rather than ignored: the
// member list would silently move to etcd.
func membership(getenv func(string) string) (string, error) {
	kind := strings.ToLower(strings.TrimSpace(or(getenv("BUDDI_CLUSTER_MEMBERSHIP"), Memberships[0])))
	if kind == "consul" || strings.TrimSpace(getenv("BUDDI_CLUSTER_CONSUL")) != "" {
		return "", Invalid("the consul membership is no longer offered; unset BUDDI_CLUSTER_CONSUL and BUDDI_CLUSTER_MEMBERSHIP=consul, and let etcd keep the member list (the default) or use k8s")
	}
	if !slices.Contains(Memberships, kind) {
		return "", Invalid("BUDDI_CLUSTER_MEMBERSHIP %q is not known; use one of %s", kind, strings.Join(Memberships, ", "))
	}
	return kind, nil
}

// clusterTLS reads BUDDI_CLUSTER_CA, BUDDI_CLUSTER_CERT and
// BUDDI_CLUSTER_KEY: all three or none.
func clusterTLS(getenv func(string) string) (ca, cert, key string, err error) {
	ca, cert, key = strings.TrimSpace(getenv("BUDDI_CLUSTER_CA")), strings.TrimSpace(getenv("BUDDI_CLUSTER_CERT")), strings.TrimSpace(getenv("BUDDI_CLUSTER_KEY"))
	set := 0
	for _, v := range []string{ca, cert, key} {
		if v != "" {
			set++
		}
	}
	if set != 0 && set != 3 {
		return "", "", "", Invalid("BUDDI_CLUSTER_CA, BUDDI_CLUSTER_CERT and BUDDI_CLUSTER_KEY go together: set all three (the cluster's CA, this member's certificate and its key, PEM files) or none")
	}
	return ca, cert, key, nil
}

// clusterTrust reads the cluster's TLS files, its secret file and whether
// a plaintext etcd beyond loopback is accepted.
func (c *Config) clusterTrust(getenv func(string) string) (err error) {
	if c.ClusterCA, c.ClusterCert, c.ClusterKey, err = clusterTLS(getenv); err != nil {
		return err
	}
	c.ClusterSecret = strings.TrimSpace(getenv("BUDDI_CLUSTER_SECRET"))
	if c.ClusterPlaintextEtcd, err = Bool("BUDDI_CLUSTER_PLAINTEXT_ETCD", getenv("BUDDI_CLUSTER_PLAINTEXT_ETCD")); err != nil {
		return err
	}
	c.ClusterTrustEtcd, err = Bool("BUDDI_CLUSTER_TRUST_ETCD", getenv("BUDDI_CLUSTER_TRUST_ETCD"))
	return err
}

// ClusterSecretFile is the file in the data directory a member reads the
// cluster's secret from when --cluster-secret is not given.
const ClusterSecretFile = "cluster.secret"

// ClusterSecretPath is the cluster's secret file this member reads.
func (c *Config) ClusterSecretPath() string {
	if c.ClusterSecret != "" {
		return c.ClusterSecret
	}
	return filepath.Join(c.DataDir, ClusterSecretFile)
}

// clusterPort reads BUDDI_CLUSTER_PORT: empty for 0 (any free port).
func clusterPort(v string) (int, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	p, err := strconv.Atoi(v)
	if err != nil || p < 0 || p > 65535 {
		return 0, Invalid("BUDDI_CLUSTER_PORT is %q; give a port from 0 (any free port) to 65535", v)
	}
	return p, nil
}

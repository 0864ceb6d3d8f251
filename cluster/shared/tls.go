package shared

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// TLSFiles name a member's certificate and key and the cluster's CA, PEM
// files: the member's certificate, signed by the CA, is its client
// certificate to etcd and its certificate on the members' transport, both
// ends of which require one the CA signed.
type TLSFiles struct {
	CA, Cert, Key string
}

// Set reports whether any file is named.
func (f TLSFiles) Set() bool { return f.CA != "" || f.Cert != "" || f.Key != "" }

// TLS is a loaded TLSFiles.
type TLS struct {
	roots *x509.CertPool
	cert  tls.Certificate
}

// Load reads the three files. Naming only some of them is an error: a
// member either speaks TLS to etcd and the other members or it does not.
func (f TLSFiles) Load() (*TLS, error) {
	if f.CA == "" || f.Cert == "" || f.Key == "" {
		return nil, errors.New("shared: TLS needs the cluster's CA, this member's certificate and its key; name all three (BUDDI_CLUSTER_CA, BUDDI_CLUSTER_CERT, BUDDI_CLUSTER_KEY) or none")
	}
	pem, err := os.ReadFile(f.CA)
	if err != nil {
		return nil, fmt.Errorf("shared: read the cluster's CA (BUDDI_CLUSTER_CA): %w", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("shared: %s holds no PEM certificate; give the CA that signed the members' and etcd's certificates", f.CA)
	}
	cert, err := tls.LoadX509KeyPair(f.Cert, f.Key)
	if err != nil {
		return nil, fmt.Errorf("shared: load this member's certificate %s and key %s (BUDDI_CLUSTER_CERT, BUDDI_CLUSTER_KEY): %w", f.Cert, f.Key, err)
	}
	return &TLS{roots: roots, cert: cert}, nil
}

// Client is the configuration to reach etcd with: the server verified
// against the CA by its name, this member's certificate offered.
func (t *TLS) Client() *tls.Config {
	return &tls.Config{RootCAs: t.roots, Certificates: []tls.Certificate{t.cert}, MinVersion: tls.VersionTLS12}
}

// Member is the configuration of the members' transport, for the server
// and the dialling side alike: each end offers its certificate and
// requires the other's to be signed by the CA. The name in it is not
// checked: members are reached at addresses (such as a pod's IP) that
// their certificates cannot know, and the CA signs only members.
func (t *TLS) Member() *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{t.cert},
		MinVersion:   tls.VersionTLS13,
		ClientAuth:   tls.RequireAnyClientCert,
		// The chain is checked below, against the CA, for both ends.
		InsecureSkipVerify:    true, //nolint:gosec // verified by VerifyPeerCertificate
		VerifyPeerCertificate: t.verifyMember,
	}
}

func (t *TLS) verifyMember(raw [][]byte, _ [][]*x509.Certificate) error {
	if len(raw) == 0 {
		return errors.New("shared: the other end offered no certificate")
	}
	certs := make([]*x509.Certificate, len(raw))
	for i, r := range raw {
		c, err := x509.ParseCertificate(r)
		if err != nil {
			return fmt.Errorf("shared: the other end's certificate does not parse: %w", err)
		}
		certs[i] = c
	}
	inter := x509.NewCertPool()
	for _, c := range certs[1:] {
		inter.AddCert(c)
	}
	_, err := certs[0].Verify(x509.VerifyOptions{Roots: t.roots, Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}})
	if err != nil {
		return fmt.Errorf("shared: the other end is not a member of this cluster: %w", err)
	}
	return nil
}

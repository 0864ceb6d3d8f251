package etcdtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// PKI is a certificate authority for a test: its certificates are valid
// for a day and name 127.0.0.1 and localhost.
type PKI struct {
	// CA is the path of the CA's certificate (PEM); CAPEM is its content.
	CA    string
	CAPEM []byte

	dir    string
	cert   *x509.Certificate
	key    *ecdsa.PrivateKey
	serial atomic.Int64
}

// NewPKI makes a CA whose files live under t.TempDir().
func NewPKI(t testing.TB) *PKI {
	t.Helper()
	p := &PKI{dir: t.TempDir(), key: Key(t)}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "buddi test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &p.key.PublicKey, p.key)
	if err != nil {
		t.Fatal(err)
	}
	if p.cert, err = x509.ParseCertificate(der); err != nil {
		t.Fatal(err)
	}
	p.serial.Store(1)
	p.CAPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	p.CA = filepath.Join(p.dir, "ca.crt")
	WriteFile(t, p.CA, p.CAPEM)
	return p
}

// Issue makes a certificate called name, for server and client
// authentication at 127.0.0.1 and localhost, and returns the paths of it
// and its key.
func (p *PKI) Issue(t testing.TB, name string) (cert, key string) {
	t.Helper()
	k := Key(t)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(p.serial.Add(1)), Subject: pkix.Name{CommonName: name},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.cert, &k.PublicKey, p.key)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(p.dir, name+".crt"), filepath.Join(p.dir, name+".key")
	WriteFile(t, cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	WriteFile(t, key, KeyPEM(t, k))
	return cert, key
}

// Key makes a P-256 key.
func Key(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// KeyPEM is k as a PEM private key.
func KeyPEM(t testing.TB, k *ecdsa.PrivateKey) []byte {
	t.Helper()
	der, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
}

// WriteFile writes b to path, readable by its owner only.
func WriteFile(t testing.TB, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

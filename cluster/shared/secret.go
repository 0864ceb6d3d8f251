package shared

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// SecretSize is the bytes of a cluster secret.
const SecretSize = 32

// SecretFile is the file in a member's data directory it reads the
// cluster's secret from when neither --cluster-secret nor
// BUDDI_CLUSTER_SECRET names one.
const SecretFile = "cluster.secret"

// The labels the two keys are derived under: one secret, two keys that
// cannot stand for each other.
const (
	labelTransport = "buddi cluster v1: member transport seal"
	labelRecords   = "buddi cluster v1: record signing"
)

// Secret is the cluster's secret, which every member holds in a file of
// its own and which is never written to etcd: whoever can write etcd but
// lacks it can neither sign a record members accept nor seal a message
// they take.
type Secret struct{ raw []byte }

// NewSecret makes a secret of b, which must be SecretSize bytes.
func NewSecret(b []byte) (Secret, error) {
	if len(b) != SecretSize {
		return Secret{}, fmt.Errorf("shared: a cluster secret is %d bytes, not %d; make one with `buddi cluster init`", SecretSize, len(b))
	}
	return Secret{raw: append([]byte(nil), b...)}, nil
}

// IsZero reports whether s holds no secret.
func (s Secret) IsZero() bool { return len(s.raw) == 0 }

// TransportKey is the key the members' transport seals its envelopes with.
func (s Secret) TransportKey() []byte { return s.derive(labelTransport) }

// RecordKey is the key shared records are signed with.
func (s Secret) RecordKey() []byte { return s.derive(labelRecords) }

func (s Secret) derive(label string) []byte {
	h := hmac.New(sha256.New, s.raw)
	h.Write([]byte(label))
	return h.Sum(nil)
}

// ErrSecretExists refuses to write a secret over a file that is there.
var ErrSecretExists = errors.New("shared: the file exists; a cluster has one secret, so copy that file rather than make another (remove it first only to start a new cluster)")

// WriteSecret makes a new random secret in a new file at path, readable by
// its owner only; an existing file is never overwritten.
func WriteSecret(path string) error {
	raw := make([]byte, SecretSize)
	if _, err := rand.Read(raw); err != nil {
		return fmt.Errorf("shared: no randomness for the cluster secret: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s: %w", path, ErrSecretExists)
	}
	if err != nil {
		return fmt.Errorf("shared: create the cluster secret %s: %w", path, err)
	}
	if _, err := f.Write(raw); err != nil {
		_ = f.Close()
		return fmt.Errorf("shared: write the cluster secret %s: %w", path, err)
	}
	return f.Close()
}

// SecretError is a secret file that cannot be used; its sentence says
// what to copy where.
type SecretError struct {
	Path string
	Why  string
}

func (e *SecretError) Error() string { return e.Why }

// ReadSecret reads the secret file at path. A missing file, one that
// others than its owner may read, and one of another size are refused.
func ReadSecret(path string) (Secret, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Secret{}, &SecretError{Path: path, Why: fmt.Sprintf("No cluster secret at %s: make one once with `buddi cluster init --out %s` and copy that same file to every member (mode 0600), or name it with --cluster-secret or BUDDI_CLUSTER_SECRET.", path, path)}
	}
	if err != nil {
		return Secret{}, &SecretError{Path: path, Why: fmt.Sprintf("The cluster secret at %s cannot be read (%v); make it readable by the user buddi runs as, and by no one else.", path, err)}
	}
	if info.Mode().Perm()&0o077 != 0 {
		return Secret{}, &SecretError{Path: path, Why: fmt.Sprintf("The cluster secret at %s may be read by others (mode %04o); run `chmod 600 %s` so only buddi's user can read it.", path, info.Mode().Perm(), path)}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return Secret{}, &SecretError{Path: path, Why: fmt.Sprintf("The cluster secret at %s cannot be read (%v); make it readable by the user buddi runs as, and by no one else.", path, err)}
	}
	s, err := NewSecret(raw)
	if err != nil {
		return Secret{}, &SecretError{Path: path, Why: fmt.Sprintf("The cluster secret at %s is %d bytes, not %d; copy the file `buddi cluster init` made on the first member here unchanged.", path, len(raw), SecretSize)}
	}
	return s, nil
}

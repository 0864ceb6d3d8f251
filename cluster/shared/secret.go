package shared

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// secretBytes is how many random bytes a cluster secret holds.
const secretBytes = 32

// Secret is the cluster's secret: made once by `buddi cluster init`, copied
// by the operator to every member, and never written to etcd. Whoever can
// write to etcd but lacks it cannot sign a record members accept, and
// whoever can reach a member's cluster port cannot seal an envelope.
type Secret struct {
	transport []byte // seals the envelopes members send each other
	records   []byte // signs the records of the owner's authority in etcd
}

// Transport is the key the members' transport seals envelopes with.
func (s *Secret) Transport() []byte { return s.transport }

// NewSecret derives a Secret's keys from raw, at least 32 bytes; each use
// has its own key, so a MAC made for one is never valid for the other.
func NewSecret(raw []byte) (*Secret, error) {
	if len(raw) < secretBytes {
		return nil, fmt.Errorf("shared: a cluster secret has at least %d bytes; make one with `buddi cluster init`", secretBytes)
	}
	derive := func(use string) []byte {
		h := hmac.New(sha256.New, raw)
		h.Write([]byte(use))
		return h.Sum(nil)
	}
	return &Secret{transport: derive("buddi cluster transport v1"), records: derive("buddi cluster records v1")}, nil
}

// MakeSecret writes a new random cluster secret to path (mode 0600,
// creating its directory 0700) and refuses to replace one that exists:
// members with different secrets do not understand each other.
func MakeSecret(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("shared: make the cluster secret's directory: %w", err)
	}
	raw := make([]byte, secretBytes)
	if _, err := rand.Read(raw); err != nil {
		return fmt.Errorf("shared: read random bytes for the cluster secret: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("a cluster secret already exists at %s; copy that one to every member rather than making another, or delete it first to start a new cluster", path)
	}
	if err != nil {
		return fmt.Errorf("shared: write the cluster secret: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(raw) + "\n"); err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return fmt.Errorf("shared: write the cluster secret: %w", err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("shared: write the cluster secret: %w", err)
	}
	return nil
}

// NoSecretError refuses to start a member that has no cluster secret.
type NoSecretError struct{ Path string }

func (e *NoSecretError) Error() string {
	return fmt.Sprintf("this member has no cluster secret at %s; run `buddi cluster init` on one member and copy the file it writes (mode 0600) to every member, into its data directory or the path --cluster-secret names", e.Path)
}

// ReadSecret reads the cluster secret at path: a *NoSecretError when there
// is none, an error when every user may read it or it is not a
// secret `buddi cluster init` made.
func ReadSecret(path string) (*Secret, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, &NoSecretError{Path: path}
	}
	if err != nil {
		return nil, fmt.Errorf("the cluster secret at %s cannot be read: %w", path, err)
	}
	// Group bits are let be: a Kubernetes secret volume gives the pod's
	// fsGroup read access to what it mounts.
	if info.Mode().Perm()&0o007 != 0 {
		return nil, fmt.Errorf("the cluster secret at %s may be read by every user (mode %04o); run `chmod 600 %s`", path, info.Mode().Perm(), path)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("the cluster secret at %s cannot be read: %w", path, err)
	}
	raw, err := hex.DecodeString(strings.TrimSpace(string(text)))
	if err != nil || len(raw) < secretBytes {
		return nil, fmt.Errorf("the file at %s is not a cluster secret; copy the one `buddi cluster init` made on another member, or make a new one for every member", path)
	}
	return NewSecret(raw)
}

package extension

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// File is the record's name in the data directory.
const File = "extension.json"

// Record is the pairing buddi keeps: the SHA-256 of the extension's token
// (hex), never the token.
type Record struct {
	TokenHash string    `json:"tokenHash"`
	ID        string    `json:"extensionId"`
	Build     string    `json:"build"`
	PairedAt  time.Time `json:"pairedAt"`
	LastSeen  time.Time `json:"lastSeen"`
}

// Load reads the record in dir; found is false when there is none.
func Load(dir string) (rec Record, found bool, err error) {
	b, err := os.ReadFile(filepath.Join(dir, File))
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, fmt.Errorf("extension: read %s: %w", File, err)
	}
	if err := json.Unmarshal(b, &rec); err != nil || len(rec.TokenHash) != 64 || rec.ID == "" {
		return Record{}, false, fmt.Errorf("extension: %s is damaged; forget the browser and pair it again", File)
	}
	return rec, true, nil
}

// Save writes the record to dir, owner-only, replacing the old one in one
// step (a crash leaves the old record or the new, never half of one).
func Save(dir string, rec Record) error {
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".extension-*.json")
	if err != nil {
		return fmt.Errorf("extension: save %s: %w", File, err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	if err := tmp.Chmod(0o600); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("extension: save %s: %w", File, err)
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("extension: save %s: %w", File, err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("extension: save %s: %w", File, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("extension: save %s: %w", File, err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, File)); err != nil {
		return fmt.Errorf("extension: save %s: %w", File, err)
	}
	return nil
}

// Remove deletes the record in dir; none there is not an error.
func Remove(dir string) error {
	err := os.Remove(filepath.Join(dir, File))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("extension: remove %s: %w", File, err)
	}
	return nil
}

package instance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrRunning means another buddi serve holds the data directory.
var ErrRunning = errors.New("instance: another buddi serve uses this data directory")

// Instance is what serve.json records for CLI commands and a second serve.
type Instance struct {
	PID     int       `json:"pid"`
	Addr    string    `json:"addr"`
	Started time.Time `json:"started"`
}

// Lock is the exclusive lock on a data directory, held while buddi serves
// from it.
type Lock struct {
	f    *os.File
	info string // path of serve.json
}

// Acquire takes the exclusive lock on dir, or says who holds it.
func Acquire(dir string) (*Lock, error) {
	f, err := os.OpenFile(filepath.Join(dir, "buddi.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("instance: open the lock in %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		inst, rerr := ReadInstance(dir)
		if rerr != nil {
			return nil, fmt.Errorf("%w (%s)", ErrRunning, dir)
		}
		return nil, fmt.Errorf("%w: it runs at http://%s (pid %d); stop it first or use another --data", ErrRunning, inst.Addr, inst.PID)
	}
	return &Lock{f: f, info: filepath.Join(dir, "serve.json")}, nil
}

// Record writes serve.json, owner-only, for CLI commands and a second serve.
func (l *Lock) Record(inst Instance) error {
	b, _ := json.Marshal(inst)
	tmp := l.info + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, l.info)
}

// Release removes serve.json and lets the directory go.
func (l *Lock) Release() {
	_ = os.Remove(l.info)
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	_ = l.f.Close()
}

// ErrUntrustedInstance means serve.json is not the owner's own: another
// user owns it, or its mode is not owner-only. Its address is not used, since the
// CLI would send a token there.
var ErrUntrustedInstance = errors.New("instance: serve.json is not yours alone")

// ReadInstance reads serve.json of a running daemon. The file must belong
// to the user reading it and be owner-only (0600); otherwise the
// error is ErrUntrustedInstance, with a sentence on what to fix.
func ReadInstance(dir string) (Instance, error) {
	var inst Instance
	path := filepath.Join(dir, "serve.json")
	f, err := os.Open(path)
	if err != nil {
		return inst, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return inst, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !ok || int(st.Uid) != os.Geteuid():
		return inst, fmt.Errorf("%w: %s belongs to another user; remove it, or use --addr", ErrUntrustedInstance, path)
	case fi.Mode().Perm()&0o077 != 0 || !fi.Mode().IsRegular():
		return inst, fmt.Errorf("%w: %s is open to others (mode %v), not owner-only; remove it and start buddi serve again", ErrUntrustedInstance, path, fi.Mode().Perm())
	}
	if err := json.NewDecoder(io.LimitReader(f, 4096)).Decode(&inst); err != nil {
		return inst, fmt.Errorf("instance: %s cannot be read: %w", path, err)
	}
	return inst, nil
}

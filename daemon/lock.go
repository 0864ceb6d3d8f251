package daemon

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// ErrRunning means another buddi serve holds the data directory.
var ErrRunning = errors.New("daemon: another buddi serve uses this data directory")

// Instance is what serve.json records for CLI commands and a second serve.
type Instance struct {
	PID     int       `json:"pid"`
	Addr    string    `json:"addr"`
	Started time.Time `json:"started"`
}

type lock struct {
	f    *os.File
	info string // path of serve.json
}

// acquire takes the exclusive lock on dir, or says who holds it.
func acquire(dir string) (*lock, error) {
	f, err := os.OpenFile(filepath.Join(dir, "buddi.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("daemon: open the lock in %s: %w", dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		inst, rerr := ReadInstance(dir)
		if rerr != nil {
			return nil, fmt.Errorf("%w (%s)", ErrRunning, dir)
		}
		return nil, fmt.Errorf("%w: it runs at http://%s (pid %d); stop it first or use another --data", ErrRunning, inst.Addr, inst.PID)
	}
	return &lock{f: f, info: filepath.Join(dir, "serve.json")}, nil
}

func (l *lock) record(inst Instance) error {
	b, _ := json.Marshal(inst)
	tmp := l.info + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, l.info)
}

func (l *lock) release() {
	_ = os.Remove(l.info)
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	_ = l.f.Close()
}

// ReadInstance reads serve.json of a running daemon.
func ReadInstance(dir string) (Instance, error) {
	var inst Instance
	b, err := os.ReadFile(filepath.Join(dir, "serve.json"))
	if err != nil {
		return inst, err
	}
	return inst, json.Unmarshal(b, &inst)
}

package playwright

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// killProfile kills every process group led by a browser started on profile.
// Playwright starts the browser as the leader of its own process group; what
// survives a graceful close (or a crashed buddi) dies here with its group.
func killProfile(profile string) {
	mark := []byte("--user-data-dir=" + profile + "\x00")
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmd, mark) {
			continue
		}
		if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			continue
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

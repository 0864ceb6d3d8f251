//go:build unix

package protocol

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the helper in a process group of its own and makes
// cancelling kill that whole group, so nothing the helper started outlives a
// cancelled call (an app it launched is in a session of its own and stays).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

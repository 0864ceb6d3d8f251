package linux

import (
	"os"
	"os/exec"
	"syscall"

	"github.com/buddi-dev/buddi/native/protocol"
)

// start runs an app's Exec line (with url for %u and the like) in a session
// of its own, so that it outlives the helper and is not in the process
// group a cancelled call kills. No shell is involved.
func start(e entry, url string) error {
	args, usedURL, err := execArgs(e.Exec, url)
	if err != nil {
		return protocol.Errorf(protocol.CodeLaunchFailed, "The desktop entry of %s has an Exec line the helper cannot read, so nothing was started.", e.Name).WithDetail(err)
	}
	if url != "" && !usedURL {
		return protocol.Errorf(protocol.CodeLaunchFailed, "%s does not take a URL to open (its desktop entry has no %%u), so nothing was opened; the owner can pick another browser in Settings.", e.Name)
	}
	prog, err := exec.LookPath(args[0])
	if err != nil {
		return protocol.Errorf(protocol.CodeLaunchFailed, "The program of %s (%s) is not installed, so nothing was started.", e.Name, args[0]).WithDetail(err)
	}
	cmd := exec.Command(prog, args[1:]...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if home, err := os.UserHomeDir(); err == nil {
		cmd.Dir = home
	}
	if err := cmd.Start(); err != nil {
		return protocol.Errorf(protocol.CodeLaunchFailed, "%s could not be started.", e.Name).WithDetail(err)
	}
	return cmd.Process.Release()
}

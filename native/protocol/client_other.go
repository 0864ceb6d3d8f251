//go:build !unix

package protocol

import "os/exec"

// ownGroup kills the helper itself on cancel where there are no process groups.
func ownGroup(cmd *exec.Cmd) {}

//go:build linux

package playwright

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// enter gives the calling thread the plan's namespaces and account. The
// thread stays locked: exec carries its namespaces into node, and a thread
// in other namespaces must never run anything else.
func (p *plan) enter() error {
	runtime.LockOSThread()
	if len(p.Views) > 0 {
		if err := p.mountViews(); err != nil {
			return err
		}
	}
	if p.NetNS != "" {
		if err := joinNetNS(p.NetNS); err != nil {
			return err
		}
	}
	if p.Account == nil {
		return nil
	}
	a := p.Account
	if err := syscall.Setgroups([]int{a.GID}); err != nil {
		return fmt.Errorf("cannot drop to the group of %s: %w", a.Name, err)
	}
	if err := syscall.Setresgid(a.GID, a.GID, a.GID); err != nil {
		return fmt.Errorf("cannot drop to the group of %s: %w", a.Name, err)
	}
	if err := syscall.Setresuid(a.UID, a.UID, a.UID); err != nil {
		return fmt.Errorf("cannot become %s: %w", a.Name, err)
	}
	if err := writePrefs(p.Profile); err != nil {
		return err
	}
	return os.Chdir(p.Profile)
}

func (p *plan) exec(env []string) error {
	args := append([]string{p.Node}, os.Args[1:]...)
	err := syscall.Exec(p.Node, args, env)
	return fmt.Errorf("cannot run %s: %w", p.Node, err)
}

func joinNetNS(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("cannot open the browser's network namespace: %w", err)
	}
	defer f.Close()
	if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
		return fmt.Errorf("cannot join the browser's network namespace: %w", err)
	}
	return nil
}

// mountViews gives the thread a mount namespace of its own, private to it,
// and sets up every view in it.
func (p *plan) mountViews() error {
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("cannot give the browser a view of its own files: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("cannot make the browser's mounts private: %w", err)
	}
	// The thread has its own file-system attributes now: the directories
	// made on each tmpfs must be enterable whatever root's umask is.
	unix.Umask(0o022)
	for _, v := range p.Views {
		if err := v.mount(); err != nil {
			return err
		}
	}
	return nil
}

// mount holds on to every path to bind back, covers the directory, and
// binds the paths back in at their own names.
func (v view) mount() error {
	fds := make([]int, len(v.Binds))
	for i, b := range v.Binds {
		fd, err := unix.Open(b.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("cannot open %s for the browser: %w", b.Path, err)
		}
		defer unix.Close(fd)
		fds[i] = fd
	}
	if err := unix.Mount("tmpfs", v.Dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=64k"); err != nil {
		return fmt.Errorf("cannot cover %s for the browser: %w", v.Dir, err)
	}
	for i, b := range v.Binds {
		if err := mountPoint(b); err != nil {
			return err
		}
		src := "/proc/self/fd/" + strconv.Itoa(fds[i])
		if err := unix.Mount(src, b.Path, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("cannot show %s to the browser: %w", b.Path, err)
		}
		if !b.Writable {
			flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV)
			if err := unix.Mount("", b.Path, "", flags, ""); err != nil {
				return fmt.Errorf("cannot make %s read-only for the browser: %w", b.Path, err)
			}
		}
	}
	return nil
}

// mountPoint makes the directories down to b.Path on the tmpfs, and b.Path
// itself as an empty directory or file.
func mountPoint(b bound) error {
	if err := os.MkdirAll(filepath.Dir(b.Path), 0o755); err != nil {
		return fmt.Errorf("cannot show %s to the browser: %w", b.Path, err)
	}
	if b.Dir {
		if err := os.Mkdir(b.Path, 0o755); err != nil && !os.IsExist(err) {
			return fmt.Errorf("cannot show %s to the browser: %w", b.Path, err)
		}
		return nil
	}
	f, err := os.OpenFile(b.Path, os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("cannot show %s to the browser: %w", b.Path, err)
	}
	return f.Close()
}

// mountNamespaces reports whether this process may give a thread a mount
// namespace of its own (it takes root with CAP_SYS_ADMIN): it tries once,
// on a thread that is thrown away afterwards.
var mountNamespaces = sync.OnceValue(func() error {
	done := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		done <- unix.Unshare(unix.CLONE_NEWNS)
	}()
	return <-done
})

//go:build linux

package netns

import (
	"errors"
	"fmt"
	"net"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// New makes a namespace, brings its loopback up and listens on it.
func New() (*Namespace, error) {
	type made struct {
		n   *Namespace
		err error
	}
	done := make(chan made, 1)
	go func() {
		runtime.LockOSThread()
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			runtime.UnlockOSThread() // the thread is unchanged
			if errors.Is(err, unix.EPERM) {
				err = fmt.Errorf("%w: %w", ErrUnsupported, err)
			}
			done <- made{err: err}
			return
		}
		// From here on the thread is in the new namespace: it stays
		// locked and ends with this goroutine.
		n, err := inside()
		done <- made{n, err}
	}()
	m := <-done
	return m.n, m.err
}

// inside runs on the thread in the new namespace.
func inside() (*Namespace, error) {
	if err := loopbackUp(); err != nil {
		return nil, fmt.Errorf("netns: bring loopback up: %w", err)
	}
	f, err := os.Open("/proc/thread-self/ns/net")
	if err != nil {
		return nil, fmt.Errorf("netns: %w", err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("netns: listen: %w", err)
	}
	return &Namespace{file: f, ln: ln}, nil
}

func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// Path names the namespace for setns: this process's descriptor of it.
func (n *Namespace) Path() string {
	return fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), n.file.Fd())
}

// run calls f on a thread that has joined the namespace; the thread is
// thrown away afterwards.
func (n *Namespace) run(f func()) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if err := unix.Setns(int(n.file.Fd()), unix.CLONE_NEWNET); err != nil {
			done <- err
			return
		}
		f()
		done <- nil
	}()
	return <-done
}

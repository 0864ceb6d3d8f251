package etcdtest

import "syscall"

// procAttr has the kernel kill etcd if the test process dies first.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

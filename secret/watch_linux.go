package secret

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"unsafe"
)

// watcher tells the vault when its file may have changed, from an inotify
// watch on the file's directory (the file's name arriving, leaving or
// being replaced) and one on the file itself (an edit in place). Events
// for the directory's other files are not asked for, but for their names.
type watcher struct {
	f    *os.File // the inotify instance; closing it ends run
	path string
	dir  int32 // the watch on the directory
	file int32 // the watch on the file; -1 when there is none
	done chan struct{}
}

const (
	dirEvents  = syscall.IN_CREATE | syscall.IN_MOVED_TO | syscall.IN_MOVED_FROM | syscall.IN_DELETE | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF
	fileEvents = syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE | syscall.IN_ATTRIB
)

// watch starts watching path's directory and path, calling changed after
// anything that may have changed the file and gone when the watch ends
// for good (the directory removed or moved). It fails where the directory
// cannot be watched; the vault then reads the file's state on every read.
func watch(path string, changed, gone func()) (*watcher, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	w := &watcher{f: os.NewFile(uintptr(fd), "inotify"), path: path, file: -1, done: make(chan struct{})}
	wd, err := syscall.InotifyAddWatch(fd, filepath.Dir(path), dirEvents)
	if err != nil {
		_ = w.f.Close()
		return nil, err
	}
	w.dir = int32(wd) //nolint:gosec // a watch descriptor is a small int
	w.follow(fd)
	go w.run(fd, changed, gone)
	return w, nil
}

// follow watches the file now at path for edits in place; a file that is
// not there yet is watched once its name arrives.
func (w *watcher) follow(fd int) {
	wd, err := syscall.InotifyAddWatch(fd, w.path, fileEvents)
	if err != nil {
		w.file = -1
		return
	}
	w.file = int32(wd) //nolint:gosec // a watch descriptor is a small int
}

// run reads events until the instance is closed. A batch that names the
// file (or overflowed) re-follows the file first and tells changed after,
// so an edit after changed is always seen by a watch already in place.
func (w *watcher) run(fd int, changed, gone func()) {
	defer close(w.done)
	buf := make([]byte, 16*(syscall.SizeofInotifyEvent+syscall.NAME_MAX+1))
	name := filepath.Base(w.path)
	for {
		n, err := w.f.Read(buf)
		if err != nil {
			if !errors.Is(err, os.ErrClosed) {
				gone()
			}
			return
		}
		hit, lost := w.scan(buf[:n], name)
		if lost {
			gone()
			return
		}
		if hit {
			w.follow(fd)
			changed()
		}
	}
}

// scan says whether events name the file (or may have: an overflow) and
// whether the directory's watch ended.
func (w *watcher) scan(b []byte, name string) (hit, lost bool) {
	for len(b) >= syscall.SizeofInotifyEvent {
		ev := (*syscall.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := syscall.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			return true, false
		}
		evName := string(trimNUL(b[syscall.SizeofInotifyEvent:end]))
		switch {
		case ev.Wd == w.dir && ev.Mask&(syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF|syscall.IN_IGNORED) != 0:
			lost = true
		case ev.Mask&syscall.IN_Q_OVERFLOW != 0, ev.Wd == w.file, evName == name:
			hit = true
		}
		b = b[end:]
	}
	return hit, lost
}

func trimNUL(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// close ends the watch and waits for run to return.
func (w *watcher) close() error {
	err := w.f.Close()
	<-w.done
	return err
}

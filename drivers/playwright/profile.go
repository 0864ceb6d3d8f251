package playwright

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/buddi-dev/buddi/drivers"
)

// makeProfile makes the profile directory, 0700. With an account, the
// directories above it stay buddi's and the profile, with everything in it,
// becomes the account's: a profile left by a run as another user is handed
// over file by file, without following any link in it.
func makeProfile(profile string, a *account) error {
	if err := os.MkdirAll(filepath.Dir(profile), 0o700); err != nil {
		return launchError(err)
	}
	fi, err := os.Lstat(profile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		err = os.Mkdir(profile, 0o700)
	case err == nil && !fi.IsDir():
		return fail(drivers.CodeNoBrowser, nil, "The browser profile "+profile+" is not a directory: move it aside and try again.")
	}
	if err != nil {
		return launchError(err)
	}
	if a != nil {
		if err := chownTree(profile, a.uid, a.gid); err != nil {
			return fail(drivers.CodeNoBrowser, err, fmt.Sprintf("The browser profile %s could not be handed to the user %s: %v.", profile, a.name, err))
		}
	}
	// The directory above is buddi's: nobody else can swap the profile for
	// a link between the Lstat above and here.
	if err := os.Chmod(profile, 0o700); err != nil {
		return launchError(err)
	}
	return nil
}

// chownTree gives dir and everything under it to uid:gid, walking by
// directory descriptors and never through a symbolic link, so that what a
// process of uid does to the tree meanwhile cannot redirect the walk.
func chownTree(dir string, uid, gid int) error {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	if err := unix.Fchown(fd, uid, gid); err != nil {
		_ = unix.Close(fd)
		return err
	}
	return chownUnder(fd, uid, gid)
}

// chownUnder hands over what directory fd holds, then closes fd.
func chownUnder(fd, uid, gid int) error {
	d := os.NewFile(uintptr(fd), "profile")
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := chownEntry(fd, name, uid, gid); err != nil {
			return err
		}
	}
	return nil
}

// chownEntry hands over one entry of directory fd, and what it holds when
// it is a directory. An entry gone meanwhile is skipped.
func chownEntry(fd int, name string, uid, gid int) error {
	var st unix.Stat_t
	if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if errors.Is(err, unix.ENOENT) {
			return nil
		}
		return err
	}
	isDir := st.Mode&unix.S_IFMT == unix.S_IFDIR
	// A second name of a file is left alone: it may be a link to a
	// file elsewhere that the walk must not hand over.
	if (int(st.Uid) != uid || int(st.Gid) != gid) && (isDir || st.Nlink == 1) {
		if err := unix.Fchownat(fd, name, uid, gid, unix.AT_SYMLINK_NOFOLLOW); err != nil && !errors.Is(err, unix.ENOENT) {
			return err
		}
	}
	if !isDir {
		return nil
	}
	sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
			return nil
		}
		return err
	}
	return chownUnder(sub, uid, gid)
}

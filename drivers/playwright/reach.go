package playwright

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/buddi-dev/buddi/drivers"
)

// Permission bits asked of a path, as in a mode's rwx triplet.
const (
	mayRead  = 4
	mayWrite = 2
	mayEnter = 1 // search a directory, run a file
)

// may reports whether a has all of bits on fi, by its owner, group and
// other bits (access control lists are not read).
func (a *account) may(fi os.FileInfo, bits os.FileMode) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	shift := 0
	switch {
	case int(st.Uid) == a.uid:
		shift = 6
	case int(st.Gid) == a.gid:
		shift = 3
	}
	return (fi.Mode().Perm()>>shift)&bits == bits
}

// closedOn returns the first directory on the way to p (p itself not
// included) that a cannot enter, or "" when it can enter them all.
func (a *account) closedOn(p string) (string, error) {
	var dirs []string
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == "/" || d == "." {
			break
		}
	}
	slices.Reverse(dirs)
	for _, d := range dirs {
		fi, err := os.Stat(d)
		if err != nil {
			return "", err
		}
		if !a.may(fi, mayEnter) {
			return d, nil
		}
	}
	return "", nil
}

// need is a path the browser side must reach, and what it does with it.
type need struct {
	path string
	bits os.FileMode
	dir  bool
}

// needs are the paths the browser side uses as a: its profile, Playwright's
// driver, node, and the browser's own directory. Each is given with its
// symbolic links resolved, as the kernel walks it.
func needs(profile, driver, node, browser string) ([]need, error) {
	list := []need{
		{profile, mayRead | mayWrite | mayEnter, true},
		{driver, mayRead | mayEnter, true},
		{node, mayEnter, false},
		{filepath.Dir(browser), mayRead | mayEnter, true},
		{browser, mayRead | mayEnter, false},
	}
	for i := range list {
		p, err := filepath.EvalSymlinks(list[i].path)
		if err != nil {
			return nil, err
		}
		list[i].path = p
	}
	return list, nil
}

// planViews returns the views that let a reach every need: one per
// topmost directory a cannot enter, each showing the needs under it. It
// fails, in one sentence, when a need itself is closed to a.
func (a *account) planViews(list []need) ([]view, error) {
	byDir := map[string][]need{}
	for _, n := range list {
		fi, err := os.Stat(n.path)
		if err != nil {
			return nil, err
		}
		if !a.may(fi, n.bits) {
			return nil, fail(drivers.CodeNoBrowser, nil, fmt.Sprintf(
				"The browser runs as the user %s, which cannot use %s (mode %v): make it readable and runnable by other users, or install it somewhere they can use it.",
				a.name, n.path, fi.Mode().Perm()))
		}
		closed, err := a.closedOn(n.path)
		if err != nil {
			return nil, err
		}
		if closed != "" {
			byDir[closed] = append(byDir[closed], n)
		}
	}
	views := make([]view, 0, len(byDir))
	for d, list := range byDir {
		views = append(views, view{Dir: d, Binds: binds(list)})
	}
	slices.SortFunc(views, func(x, y view) int { return strings.Compare(x.Dir, y.Dir) })
	return views, nil
}

// binds shows each need once, leaving out any under a directory that is
// shown (it is shown with it). Two needs never have nested topmost closed
// directories, so a view never holds another.
func binds(list []need) []bound {
	var out []bound
	for _, n := range list {
		covered := slices.ContainsFunc(list, func(o need) bool { return o.dir && o.path != n.path && within(n.path, o.path) })
		if covered || slices.ContainsFunc(out, func(b bound) bool { return b.Path == n.path }) {
			continue
		}
		out = append(out, bound{Path: n.path, Dir: n.dir, Writable: n.bits&mayWrite != 0})
	}
	return out
}

// within reports whether p is dir or under it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

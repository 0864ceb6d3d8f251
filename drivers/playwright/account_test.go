package playwright_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/playwright"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("only root runs the browser as another user")
	}
}

// procStatus reads one field of /proc/<pid>/status.
func procStatus(pid int, field string) string {
	raw, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			return strings.Fields(v)[0]
		}
	}
	return ""
}

// withDescendants adds every descendant of pids (renderers do not carry
// the profile on their command lines).
func withDescendants(pids []int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pp, err := strconv.Atoi(procStatus(pid, "PPid")); err == nil {
			parent[pid] = pp
		}
	}
	in := map[int]bool{}
	for _, p := range pids {
		in[p] = true
	}
	for changed := true; changed; {
		changed = false
		for pid, pp := range parent {
			if in[pp] && !in[pid] {
				in[pid], changed = true, true
			}
		}
	}
	out := make([]int, 0, len(in))
	for p := range in {
		out = append(out, p)
	}
	return out
}

func nsOf(pid int, kind string) string {
	l, _ := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/" + kind)
	return l
}

// TestRootRunsTheBrowserAsItsAccountWithTheSandbox: as root, the driver
// and Chromium run as the browser account, the renderers are sandboxed,
// the profile is the account's alone, and buddi's own files in the data
// directory are out of the account's reach.
func TestRootRunsTheBrowserAsItsAccountWithTheSandbox(t *testing.T) {
	needRoot(t)
	dir := browsertest.TempDir(t)
	if err := os.Chmod(dir, 0o700); err != nil { // as buddi serve leaves it
		t.Fatal(err)
	}
	token := filepath.Join(dir, "owner-token")
	if err := os.WriteFile(token, []byte("secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := browsertest.New(t, func(c *playwright.Config) { c.DataDir = dir })
	r := playwright.RunsAs(playwright.Config{DataDir: dir})
	if r.User != playwright.DefaultBrowserUser || !r.Sandbox || r.Problem != "" || r.UID == 0 {
		t.Fatalf("RunsAs: %+v", r)
	}
	s := newSite(t)
	s.page("/p", "Page", "hello")
	navigate(t, openConv(t, d, "c1"), s.URL+"/p")

	pids := browsertest.PIDs(dir)
	if len(pids) == 0 {
		t.Fatal("no browser process")
	}
	sandboxed := 0
	for _, pid := range withDescendants(pids) {
		if uid := procStatus(pid, "Uid"); uid != strconv.Itoa(r.UID) {
			t.Errorf("browser process %d runs as uid %s, want %d", pid, uid, r.UID)
		}
		if procStatus(pid, "Seccomp") == "2" && nsOf(pid, "user") != nsOf(os.Getpid(), "user") {
			sandboxed++ // a renderer in its namespace sandbox, under seccomp-bpf
		}
	}
	if sandboxed == 0 {
		t.Fatal("no browser process is sandboxed")
	}

	profile := filepath.Join(dir, "browser", "profile")
	err := filepath.WalkDir(profile, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if uid := fi.Sys().(*syscall.Stat_t).Uid; int(uid) != r.UID { //nolint:forcetypeassert // linux
			t.Errorf("%s belongs to uid %d", p, uid)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(profile); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("profile: %v %v", fi.Mode(), err)
	}

	// The account cannot read the token, nor list the data directory.
	u, err := user.Lookup(r.User)
	if err != nil {
		t.Fatal(err)
	}
	gid, _ := strconv.Atoi(u.Gid)
	for _, args := range [][]string{{"cat", token}, {"ls", dir}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(r.UID), Gid: uint32(gid)}}
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Errorf("as the browser account, %v succeeded: %s", args, out)
		}
	}
	// Where the browser has a view of its own, the token is not even there.
	browser := pids[0]
	if nsOf(browser, "mnt") != nsOf(os.Getpid(), "mnt") {
		root := "/proc/" + strconv.Itoa(browser) + "/root"
		if _, err := os.Stat(root + token); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the browser's view shows the token: %v", err)
		}
		if _, err := os.Stat(root + profile); err != nil {
			t.Errorf("the browser's view lacks its profile: %v", err)
		}
	}
}

// TestNoSandboxOptInRunsAsBuddiItself is the explicit opt-in for systems
// where the sandbox or the user switch cannot work: the browser runs as
// buddi's own user, without its sandbox, and still works.
func TestNoSandboxOptInRunsAsBuddiItself(t *testing.T) {
	dir := browsertest.TempDir(t)
	d := browsertest.New(t, func(c *playwright.Config) { c.DataDir = dir; c.NoSandbox = true })
	if r := playwright.RunsAs(playwright.Config{DataDir: dir, NoSandbox: true}); r.Sandbox || r.UID != os.Geteuid() {
		t.Fatalf("RunsAs: %+v", r)
	}
	s := newSite(t)
	s.page("/p", "Unsandboxed", "hello")
	tabs := openConv(t, d, "c1")
	navigate(t, tabs, s.URL+"/p")
	if obs := observe(t, tabs, drivers.ObserveOptions{}); obs.Title != "Unsandboxed" {
		t.Fatalf("observation: %+v", obs)
	}
	for _, pid := range browsertest.PIDs(dir) {
		if uid := procStatus(pid, "Uid"); uid != strconv.Itoa(os.Geteuid()) {
			t.Fatalf("browser process %d runs as uid %s, want buddi's own %d", pid, uid, os.Geteuid())
		}
	}
}

// TestBrowserUserMustBeUnprivilegedAndExist: a named account that does not
// exist, or is root, is refused with a sentence naming it, at launch and in
// the status, and nothing is started.
func TestBrowserUserMustBeUnprivilegedAndExist(t *testing.T) {
	needRoot(t)
	if _, err := user.Lookup("buddi-no-such-user"); err == nil {
		t.Skip("the missing user exists")
	}
	for _, name := range []string{"buddi-no-such-user", "root"} {
		dir := t.TempDir()
		d, err := playwright.New(playwright.Config{DataDir: dir, BrowserUser: name})
		if err != nil {
			t.Fatal(err)
		}
		_, err = d.Open(testCtx(t), "c1")
		wantCode(t, err, drivers.CodeNoBrowser)
		var de *drivers.Error
		if !errors.As(err, &de) || !strings.Contains(de.Message, name) || !strings.Contains(de.Message, playwright.EnvBrowserUser) {
			t.Errorf("%s: %v", name, err)
		}
		if st := d.Status(testCtx(t)); !strings.Contains(st.Problem, name) || st.Running {
			t.Errorf("%s: status %+v", name, st)
		}
		if len(browsertest.PIDs(dir)) != 0 {
			t.Errorf("%s: a browser was started", name)
		}
		_ = d.Close()
	}
}

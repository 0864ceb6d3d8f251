package playwright

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"

	"github.com/buddi-dev/buddi/drivers"
)

// DefaultBrowserUser is the system account buddi creates, when it runs as
// root, to run the browser side (Playwright's driver and Chromium) with
// Chromium's sandbox on. BUDDI_BROWSER_USER names another.
const DefaultBrowserUser = "buddi"

// account is the unprivileged user the browser side runs as.
type account struct {
	name     string
	uid, gid int
}

// createMu makes one launch at a time create the default account.
var createMu sync.Mutex

// browserAccount says whom the browser side runs as: nil for buddi's own
// user (buddi is not root, or the owner gave the sandbox up explicitly),
// else the unprivileged account, created first when it is the default one
// and missing. Its errors are the sentence the owner reads.
func browserAccount(cfg *Config) (*account, error) {
	if os.Geteuid() != 0 || cfg.NoSandbox {
		return nil, nil
	}
	if runtime.GOOS != "linux" {
		return nil, fail(drivers.CodeNoBrowser, nil, msgRoot)
	}
	name := cfg.browserUser()
	a, err := lookupAccount(name)
	var unknown user.UnknownUserError
	if errors.As(err, &unknown) && name == DefaultBrowserUser {
		createMu.Lock()
		defer createMu.Unlock()
		if a, err = lookupAccount(name); errors.As(err, &unknown) {
			if err := createAccount(name, filepath.Join(cfg.DataDir, "browser")); err != nil {
				return nil, err
			}
			a, err = lookupAccount(name)
		}
	}
	if err := accountProblem(name, a, err); err != nil {
		return nil, err
	}
	return a, nil
}

// accountProblem turns what looking name up gave into the sentence that
// says why the browser cannot run as it, or nil when it can.
func accountProblem(name string, a *account, err error) error {
	var unknown user.UnknownUserError
	switch {
	case errors.As(err, &unknown):
		return fail(drivers.CodeNoBrowser, err, fmt.Sprintf(
			"%s=%s names no user on this system: create it (`useradd --system --no-create-home --shell /usr/sbin/nologin %s`), or unset %s to let buddi create %q.",
			EnvBrowserUser, name, name, EnvBrowserUser, DefaultBrowserUser))
	case err != nil:
		return err
	case a.uid == 0:
		return fail(drivers.CodeNoBrowser, nil, fmt.Sprintf(
			"%s=%s is root, and Chromium will not sandbox itself as root: name an unprivileged user.", EnvBrowserUser, name))
	}
	return nil
}

func lookupAccount(name string) (*account, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, err
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fail(drivers.CodeNoBrowser, err, "The user "+name+" has no numeric user and group id; name another with "+EnvBrowserUser+".")
	}
	return &account{name: name, uid: uid, gid: gid}, nil
}

// createAccount adds a system user with its own group, no login shell and
// no home directory of its own: its home is the data directory's browser
// folder, and the browser's HOME is its profile.
func createAccount(name, home string) error {
	shell := "/bin/false"
	for _, s := range []string{"/usr/sbin/nologin", "/sbin/nologin"} {
		if executable(s) {
			shell = s
			break
		}
	}
	var out []byte
	var err error
	switch {
	case lookPath("useradd") != "":
		out, err = exec.Command(lookPath("useradd"), "--system", "--user-group", "--no-create-home",
			"--home-dir", home, "--shell", shell, "--comment", "buddi browser", name).CombinedOutput()
	case lookPath("adduser") != "" && lookPath("addgroup") != "": // busybox
		out, err = exec.Command(lookPath("addgroup"), "-S", name).CombinedOutput()
		if err == nil {
			out, err = exec.Command(lookPath("adduser"), "-S", "-D", "-H", "-h", home, "-s", shell, "-G", name, name).CombinedOutput()
		}
	default:
		return errNoUseradd(name)
	}
	if err != nil {
		return fail(drivers.CodeNoBrowser, fmt.Errorf("%w: %s", err, out), fmt.Sprintf(
			"The system user %s could not be created: create an unprivileged user yourself and name it in %s.", name, EnvBrowserUser))
	}
	return nil
}

func lookPath(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return p
}

// Runner says whom a launch would run the browser as, and how.
type Runner struct {
	User    string // the account's name
	UID     int    // its user id
	Sandbox bool   // Chromium keeps its sandbox
	Create  bool   // the default account does not exist yet: the first launch creates it
	Problem string // one sentence when no browser can be launched this way
}

// RunsAs reports whom a launch on cfg would run the browser as, creating
// nothing.
func RunsAs(cfg Config) Runner {
	if os.Geteuid() != 0 || cfg.NoSandbox {
		r := Runner{UID: os.Geteuid(), Sandbox: !cfg.NoSandbox}
		if u, err := user.Current(); err == nil {
			r.User = u.Username
		}
		return r
	}
	if runtime.GOOS != "linux" {
		return Runner{Problem: msgRoot}
	}
	name := cfg.browserUser()
	a, err := lookupAccount(name)
	var unknown user.UnknownUserError
	if errors.As(err, &unknown) && name == DefaultBrowserUser {
		r := Runner{User: name, Sandbox: true, Create: true}
		if lookPath("useradd") == "" && (lookPath("adduser") == "" || lookPath("addgroup") == "") {
			r.Problem = message(errNoUseradd(name))
		}
		return r
	}
	if err := accountProblem(name, a, err); err != nil {
		return Runner{User: name, Problem: message(err)}
	}
	return Runner{User: a.name, UID: a.uid, Sandbox: true}
}

func errNoUseradd(name string) error {
	return fail(drivers.CodeNoBrowser, nil, fmt.Sprintf(
		"buddi runs as root and would run the browser as the system user %s, but this system has no useradd to create it: create an unprivileged user and name it in %s, or set %s=1 to run the browser without its sandbox.",
		name, EnvBrowserUser, EnvNoSandbox))
}

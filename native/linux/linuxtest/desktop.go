// Package linuxtest starts a private Linux desktop for tests of the Linux
// computer-control helper: an Xvfb display, a session D-Bus with the
// accessibility bus behind it, and private XDG directories for desktop
// entries, all stopped and removed through t.Cleanup.
//
// A missing part (Xvfb, dbus-daemon, at-spi2-core, an app) fails the test
// with a sentence that says what to install; it never skips silently.
// scripts/testdeps.sh installs them on Debian.
//
// Concurrency: a Desktop is set up and torn down on the test's goroutine;
// its processes run on their own and are all killed at cleanup, found by a
// token in their environment that every process started inside the
// desktop inherits.
package linuxtest

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Desktop is a running private desktop.
type Desktop struct {
	Display string   // such as :5
	Env     []string // the environment of a process inside the desktop
	Dir     string   // its private files
	Apps    string   // the directory of its own desktop entries (XDG_DATA_DIRS)
	token   string
}

// tokenVar marks every process started inside a test desktop.
const tokenVar = "BUDDI_LINUXTEST_TOKEN"

// Start starts a desktop that lives until the test ends.
func Start(t testing.TB) *Desktop {
	t.Helper()
	need(t, "Xvfb", "xvfb")
	need(t, "dbus-daemon", "dbus")
	if _, err := os.Stat("/usr/share/dbus-1/services/org.a11y.Bus.service"); err != nil {
		t.Fatalf("the accessibility bus (at-spi2-core) is not installed; run scripts/testdeps.sh or `apt-get install at-spi2-core`")
	}
	d := &Desktop{Dir: t.TempDir(), token: randomToken(t)}
	t.Cleanup(d.stop)
	d.files(t)
	d.Display = d.startX(t)
	d.Env = append(d.Env, "DISPLAY="+d.Display)
	d.Env = append(d.Env, "DBUS_SESSION_BUS_ADDRESS="+d.startBus(t))
	return d
}

func need(t testing.TB, prog, pkg string) {
	t.Helper()
	if _, err := exec.LookPath(prog); err != nil {
		t.Fatalf("%s is not installed; run scripts/testdeps.sh or `apt-get install %s`", prog, pkg)
	}
}

func randomToken(t testing.TB) string {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// files lays out the private directories and the environment.
func (d *Desktop) files(t testing.TB) {
	t.Helper()
	run := filepath.Join(d.Dir, "run")
	d.Apps = filepath.Join(d.Dir, "share", "applications")
	gtk := "[Settings]\ngtk-cursor-blink=false\ngtk-enable-animations=false\n"
	for _, dir := range []string{run, d.Apps, filepath.Join(d.Dir, "home"), filepath.Join(d.Dir, "config", "gtk-4.0"), filepath.Join(d.Dir, "config", "gtk-3.0")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []string{"gtk-4.0", "gtk-3.0"} {
		if err := os.WriteFile(filepath.Join(d.Dir, "config", v, "settings.ini"), []byte(gtk), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "XDG_") && !strings.HasPrefix(k, "DBUS_") && !strings.HasPrefix(k, "AT_SPI") &&
			k != "DISPLAY" && k != "WAYLAND_DISPLAY" && k != "HOME" && k != "XAUTHORITY" {
			d.Env = append(d.Env, kv)
		}
	}
	d.Env = append(d.Env, tokenVar+"="+d.token, "HOME="+filepath.Join(d.Dir, "home"),
		"XDG_RUNTIME_DIR="+run, "XDG_CONFIG_HOME="+filepath.Join(d.Dir, "config"),
		"XDG_DATA_HOME="+filepath.Join(d.Dir, "home", "share"),
		"XDG_DATA_DIRS="+filepath.Join(d.Dir, "share")+":/usr/local/share:/usr/share",
		"GDK_BACKEND=x11", "GSK_RENDERER=cairo", "GSETTINGS_BACKEND=memory", "LANG=C.UTF-8", "NO_AT_BRIDGE=0")
}

// startX starts Xvfb on a display it picks itself and returns its name.
func (d *Desktop) startX(t testing.TB) string {
	t.Helper()
	line := d.startPrinting(t, "Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset")
	return ":" + line
}

// startBus starts the session bus; the accessibility bus starts behind it
// on the first request for org.a11y.Bus.
func (d *Desktop) startBus(t testing.TB) string {
	t.Helper()
	sock := filepath.Join(d.Dir, "run", "bus")
	return d.startPrinting(t, "dbus-daemon", "--session", "--nofork", "--address=unix:path="+sock, "--print-address=3")
}

// startPrinting starts a server that writes one line to file descriptor 3
// once it is ready, and returns that line.
func (d *Desktop) startPrinting(t testing.TB, prog string, args ...string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := d.Command(prog, args...)
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s did not start: %v", prog, err)
	}
	_ = w.Close()
	go func() { _ = cmd.Wait() }()
	lines := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		lines <- strings.TrimSpace(s)
	}()
	select {
	case s := <-lines:
		if s == "" {
			t.Fatalf("%s exited before it was ready", prog)
		}
		return s
	case <-time.After(30 * time.Second):
		t.Fatalf("%s was not ready after 30 seconds", prog)
	}
	return ""
}

// Command prepares a process inside the desktop, in a process group of its
// own; cleanup kills it.
func (d *Desktop) Command(prog string, args ...string) *exec.Cmd {
	cmd := exec.Command(prog, args...)
	cmd.Env = d.Env
	cmd.Dir = d.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	return cmd
}

// AddApp writes a desktop entry with this id into the desktop's own
// applications directory.
func (d *Desktop) AddApp(t testing.TB, id, name, execLine string) {
	t.Helper()
	body := fmt.Sprintf("[Desktop Entry]\nType=Application\nName=%s\nExec=%s\n", name, execLine)
	if err := os.WriteFile(filepath.Join(d.Apps, id+".desktop"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// stop kills every process that carries the desktop's token, and waits
// until they are gone.
func (d *Desktop) stop() {
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := d.processes()
		if len(pids) == 0 || time.Now().After(deadline) {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processes lists the live (not zombie) processes started inside the desktop.
func (d *Desktop) processes() []int {
	dirs, _ := os.ReadDir("/proc")
	var out []int
	marker := []byte(tokenVar + "=" + d.token + "\x00")
	for _, e := range dirs {
		var pid int
		if _, err := fmt.Sscanf(e.Name(), "%d", &pid); err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !strings.Contains(string(env), string(marker)) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && zombie(stat) {
			continue
		}
		out = append(out, pid)
	}
	return out
}

func zombie(stat []byte) bool {
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// Running lists the live processes inside the desktop whose command name
// is prog (as /proc shows it: its first 15 bytes).
func (d *Desktop) Running(prog string) []int {
	if len(prog) > 15 {
		prog = prog[:15]
	}
	var out []int
	for _, pid := range d.processes() {
		comm, err := os.ReadFile(filepath.Join("/proc", fmt.Sprint(pid), "comm"))
		if err == nil && strings.TrimSpace(string(comm)) == prog {
			out = append(out, pid)
		}
	}
	return out
}

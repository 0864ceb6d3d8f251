package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

var bin string

func TestMain(m *testing.M) { daemontest.MainWithBinary(m, ".", &bin) }

// result of one CLI run.
type result struct {
	code           int
	stdout, stderr string
}

func runCLI(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return runCLIWith(t, "", env, args...)
}

// runCLIWith is runCLI with stdin on the command's standard input.
func runCLIWith(t *testing.T, stdin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(cleanEnv(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		// Without PLAYWRIGHT_NODEJS_PATH too: buddi must find node on PATH itself.
		if !strings.HasPrefix(kv, "BUDDI_") && !strings.HasPrefix(kv, "PLAYWRIGHT_NODEJS_PATH=") {
			env = append(env, kv)
		}
	}
	return env
}

func TestUsageAndErrors(t *testing.T) {
	cases := map[string]struct {
		args   []string
		env    []string
		code   int
		stream string // "out" or "err"
		want   string
	}{
		"help":             {[]string{"--help"}, nil, 0, "out", "Usage: buddi COMMAND"},
		"version":          {[]string{"version"}, nil, 0, "out", "buddi "},
		"unknown command":  {[]string{"fly"}, nil, 2, "err", `"fly" is not a command`},
		"serve help":       {[]string{"serve", "--help"}, nil, 0, "out", "-addr"},
		"doctor help":      {[]string{"doctor", "--help"}, nil, 0, "out", "-data"},
		"unknown flag":     {[]string{"serve", "--colour"}, nil, 2, "err", "flag provided but not defined: -colour"},
		"bad addr":         {[]string{"serve", "--addr", "nowhere"}, nil, 2, "err", `"nowhere" is not host:port`},
		"bad port":         {[]string{"serve", "--addr", "127.0.0.1:99999"}, nil, 2, "err", "0 to 65535"},
		"bad env bool":     {[]string{"serve"}, []string{"BUDDI_BROWSER_NO_SANDBOX=maybe"}, 2, "err", "is not a boolean"},
		"bad level":        {[]string{"serve"}, []string{"BUDDI_LOG_LEVEL=loud"}, 2, "err", "is not a level"},
		"bad air gap":      {[]string{"serve", "--data", "/nonexistent/x"}, []string{"BUDDI_AIR_GAP=perhaps"}, 2, "err", "BUDDI_AIR_GAP"},
		"extra args":       {[]string{"version", "extra"}, nil, 2, "err", "expected no arguments"},
		"takeover no conv": {[]string{"takeover"}, nil, 2, "err", "expected CONVERSATION"},
		"resume both":      {[]string{"resume", "c1", "--all"}, nil, 2, "err", "either one CONVERSATION or --all"},
		"task steps":       {[]string{"task", "start", "--agent", "a", "--conversation", "c", "--steps", "900", "go"}, nil, 2, "err", "out of range"},
		"remote addr":      {[]string{"serve", "--addr", "0.0.0.0:7777"}, nil, 2, "err", "--tls-cert and --tls-key, or pass --allow-remote"},
		"half tls":         {[]string{"serve", "--addr", "0.0.0.0:7777", "--tls-cert", "c.pem"}, nil, 2, "err", "go together"},
		"remote env addr":  {[]string{"serve"}, []string{"BUDDI_ADDR=192.0.2.7:7777"}, 2, "err", "in clear"},
		"mcp no token":     {[]string{"mcp"}, nil, 2, "err", "agent-token"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r := runCLI(t, c.env, c.args...)
			got := r.stdout
			if c.stream == "err" {
				got = r.stderr
			}
			if r.code != c.code || !strings.Contains(got, c.want) {
				t.Fatalf("exit %d, want %d; std%s %q should contain %q (stderr %q)", r.code, c.code, c.stream, got, c.want, r.stderr)
			}
			if c.stream == "err" && strings.Count(strings.TrimSpace(r.stderr), "\n") > 0 {
				t.Fatalf("the error is more than one line: %q", r.stderr)
			}
		})
	}
}

func TestOwnerCommandsWithoutDaemon(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, nil, "sessions", "--data", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "no owner token") {
		t.Fatalf("exit %d stderr %q; want 1 and a sentence about the owner token", r.code, r.stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "owner-token"), []byte("bo_x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, nil, "stop", "--data", dir, "--addr", daemontest.FreeAddr(t))
	if r.code != 1 || !strings.Contains(r.stderr, "buddi is not running at") {
		t.Fatalf("exit %d stderr %q; want 1 and 'buddi is not running at'", r.code, r.stderr)
	}
}

// serve starts `buddi serve` with the sim driver and waits for /healthz.
type served struct {
	cmd     *exec.Cmd
	addr    string
	dir     string
	out     *bytes.Buffer
	exposed string // serve's second line: what it serves where
	signIn  string // serve's third line: how to sign in
}

func serve(t *testing.T, dir string, env ...string) *served {
	t.Helper()
	return serveWith(t, dir, nil, env...)
}

// serveWith is serve with more of serve's flags.
func serveWith(t *testing.T, dir string, flags []string, env ...string) *served {
	t.Helper()
	addr := daemontest.FreeAddr(t)
	cmd := exec.Command(bin, append([]string{"serve", "--data", dir, "--addr", addr}, flags...)...)
	cmd.Env = append(append(cleanEnv(), "BUDDI_DRIVER=sim", "BUDDI_LOG_LEVEL=warn"), env...)
	out := &bytes.Buffer{}
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, addr: addr, dir: dir, out: out}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	said := bufio.NewReader(stdout)
	line, _ := said.ReadString('\n')
	if !strings.Contains(line, "buddi is serving at http://"+addr) {
		t.Fatalf("serve said %q (stderr %q)", line, out.String())
	}
	if s.exposed, _ = said.ReadString('\n'); !strings.HasPrefix(s.exposed, "Exposed: ") {
		t.Fatalf("serve's second line %q does not say what is exposed where", s.exposed)
	}
	s.signIn, _ = said.ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, said) }()
	waitHealthy(t, addr)
	return s
}

func TestServeLifecycle(t *testing.T) {
	dir := t.TempDir()
	s := serve(t, dir)
	fi, err := os.Stat(filepath.Join(dir, "owner-token"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("owner-token: %v mode %v; want 0600", err, fi.Mode().Perm())
	}
	h := health(t, s)
	if h["stopped"] != false || h["mode"] != "sim" || h["version"] == "" { // serve runs the sim driver here
		t.Fatalf("healthz = %v", h)
	}
	// A second serve on the same data dir is refused, naming the first one.
	r := runCLI(t, nil, "serve", "--data", dir, "--addr", daemontest.FreeAddr(t))
	if r.code != 1 || !strings.Contains(r.stderr, "http://"+s.addr) {
		t.Fatalf("second serve: exit %d stderr %q; want 1 naming %s", r.code, r.stderr, s.addr)
	}
	// Owner flow over the CLI.
	r = runCLI(t, nil, "agent", "add", "ada", "--data", dir)
	token := strings.TrimSpace(r.stdout)
	if r.code != 0 || !strings.HasPrefix(token, "ba_") {
		t.Fatalf("agent add: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "task", "start", "--agent", "ada", "--conversation", "c1", "--data", dir, "read", "the", "page")
	if r.code != 0 || !strings.Contains(r.stdout, "Task started for ada in c1") {
		t.Fatalf("task start: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "sessions", "--data", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "c1") || !strings.Contains(r.stdout, "ready") {
		t.Fatalf("sessions: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "sites", "--data", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "no site") {
		t.Fatalf("sites: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "sites", "revoke", "example.com", "--data", dir)
	if r.code != 0 || !strings.Contains(r.stdout, "example.com: removed 0 answers") {
		t.Fatalf("sites revoke: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "logins", "--data", dir) // the sim keeps no logins
	if r.code != 1 || !strings.Contains(r.stderr, "not_supported") {
		t.Fatalf("logins: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "logins", "signout", "--data", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "signout --all") {
		t.Fatalf("logins signout without a site: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, nil, "takeover", "c404", "--data", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "no_session") {
		t.Fatalf("takeover of nothing: exit %d err %q", r.code, r.stderr)
	}
	// SIGTERM shuts down cleanly and exits 0, releasing the lock.
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("serve exited with %v after SIGTERM; stderr %s", err, s.out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "serve.json")); !os.IsNotExist(err) {
		t.Fatalf("serve.json left behind after a clean shutdown: %v", err)
	}
	serve(t, dir) // the data dir is free again
}

// serve --cpuprofile writes a profile (gzipped protobuf) at shutdown.
func TestServeWritesACPUProfileAtShutdown(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	s := serveWith(t, dir, []string{"--cpuprofile", path})
	health(t, s)
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Wait(); err != nil {
		t.Fatalf("serve exited with %v after SIGTERM; stderr %s", err, s.out.String())
	}
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("the profile at %s: %d bytes, %v; want a gzipped profile", path, len(b), err)
	}
}

func TestStopSurvivesKill9(t *testing.T) {
	dir := t.TempDir()
	s := serve(t, dir)
	if r := runCLI(t, nil, "stop", "--data", dir); r.code != 0 || !strings.Contains(r.stdout, "stopped") {
		t.Fatalf("stop: exit %d out %q err %q", r.code, r.stdout, r.stderr)
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = s.cmd.Wait()
	s = serve(t, dir)
	if h := health(t, s); h["stopped"] != true {
		t.Fatalf("after kill -9 and restart healthz = %v; want stopped", h)
	}
	if r := runCLI(t, nil, "doctor", "--data", dir); !strings.Contains(r.stdout, "in use by buddi serve") {
		t.Fatalf("doctor while serving: %q", r.stdout)
	}
	if r := runCLI(t, nil, "resume", "--all", "--data", dir); r.code != 0 {
		t.Fatalf("resume --all: exit %d err %q", r.code, r.stderr)
	}
	if h := health(t, s); h["stopped"] != false {
		t.Fatalf("after resume healthz = %v; want not stopped", h)
	}
}

func TestDoctorRows(t *testing.T) {
	dir := t.TempDir()
	r := runCLI(t, []string{"BUDDI_BROWSER_NO_SANDBOX=1"}, "doctor", "--data", dir)
	for _, name := range []string{"data dir", "store", "owner token", "address", "browser", "playwright", "browser user", "sandbox", "egress proxy", "extension", "telegram"} {
		if !strings.Contains(r.stdout, name) {
			t.Fatalf("doctor has no %q row:\n%s", name, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "WITHOUT its sandbox") {
		t.Fatalf("doctor does not flag BUDDI_BROWSER_NO_SANDBOX:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "the driver is installed") {
		t.Fatalf("doctor does not find Playwright's driver with node from PATH:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "the browser starts and opens a tab") {
		t.Fatalf("doctor's first-run check did not start the browser:\n%s", r.stdout)
	}
	if strings.Contains(r.stderr, "INFO") {
		t.Fatalf("doctor's check of a start that went well logged around its table:\n%s", r.stderr)
	}
	if os.Geteuid() == 0 {
		r = runCLI(t, nil, "doctor", "--data", dir)
		if !strings.Contains(r.stdout, "not root") && !strings.Contains(r.stdout, "creates on the first launch") || !strings.Contains(r.stdout, "keeps its sandbox") {
			t.Fatalf("as root, doctor does not say the browser runs as another user with its sandbox:\n%s", r.stdout)
		}
		r = runCLI(t, []string{"BUDDI_BROWSER_USER=root"}, "doctor", "--data", dir)
		if r.code != 1 || !strings.Contains(r.stdout, "BUDDI_BROWSER_USER=root is root") {
			t.Fatalf("doctor accepts root as the browser user: exit %d\n%s", r.code, r.stdout)
		}
	}
	// A browser that cannot start for want of libraries: doctor says so in
	// one sentence, with the command to run once with sudo.
	fake := t.TempDir()
	if err := os.WriteFile(filepath.Join(fake, "google-chrome"), []byte("#!/bin/sh\necho 'chrome: error while loading shared libraries: libgbm.so.1' >&2\nexit 127\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, []string{"BUDDI_BROWSER_NO_SANDBOX=1", "PATH=" + fake + ":" + os.Getenv("PATH"), "PLAYWRIGHT_BROWSERS_PATH=" + t.TempDir()}, "doctor", "--data", dir)
	if r.code != 1 || !strings.Contains(r.stdout, "missing shared libraries") || !strings.Contains(r.stdout, "install-deps chromium`") {
		t.Fatalf("doctor with a browser missing libraries: exit %d\n%s", r.code, r.stdout)
	}
	r = runCLI(t, []string{"BUDDI_ADDR=0.0.0.0:7777"}, "doctor", "--data", dir)
	if !strings.Contains(r.stdout, "beyond this machine") {
		t.Fatalf("doctor does not warn of an address beyond loopback:\n%s", r.stdout)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, nil, "doctor", "--data", dir)
	if r.code != 1 || !strings.Contains(r.stdout, "chmod 700") {
		t.Fatalf("doctor with an open data dir: exit %d\n%s", r.code, r.stdout)
	}
}

// waitHealthy checks /healthz once: serve announces its address only once
// it is listening, so no wait is needed.
func waitHealthy(t *testing.T, addr string) {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatalf("no daemon at %s after it announced itself: %v", addr, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz at %s: HTTP %d", addr, resp.StatusCode)
	}
}

// health reads /healthz of s as the owner (the details are the owner's).
func health(t *testing.T, s *served) map[string]any {
	t.Helper()
	token, err := os.ReadFile(filepath.Join(s.dir, "owner-token"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://"+s.addr+"/healthz", nil)
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

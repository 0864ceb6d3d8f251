//go:build linux

package daemon_test

import (
	"bytes"
	"log/slog"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/config"
	"github.com/buddi-dev/buddi/daemon"
	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/messages"
)

// `buddi secret` changes leave their control lines, naming the CLI: through
// the running buddi while one runs on the data directory, and written by
// the CLI itself when none does. Neither value reaches the trail or the log.
func TestSecretCommandIsAuditedWithAndWithoutARunningBuddi(t *testing.T) {
	const first, second = "cli-first-9Kd!value", "cli-second-2Pq#value"
	bin := filepath.Join(t.TempDir(), "buddi")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/buddi").CombinedOutput(); err != nil {
		t.Fatalf("building buddi: %v\n%s", err, out)
	}
	logs := &daemontest.Buffer{}
	d := daemontest.Start(t, "", daemon.Options{Config: config.Config{LogLevel: "debug"},
		Log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	run := func(stdin string, args ...string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"secret", "--data", d.Dir}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("buddi secret %v: %v: %s", args, err, out.String())
		}
	}
	run(first+"\n", "add", "gh", "--origin", "https://github.com")
	var list messages.SecretList
	if err := d.Must(t, "GET", "/api/secrets", nil).Decode(&list); err != nil || len(list.Secrets) != 1 {
		t.Fatalf("the running buddi's secrets after the add: %+v, %v", list, err)
	}
	d.Stop(t)
	run(second+"\n", "add", "gh", "--origin", "https://github.com")
	run("", "remove", "gh")

	trail := trailOf(t, d.Dir)
	want := []struct{ action, detail string }{
		{"add_secret", "cli: gh for https://github.com"},
		{"change_secret", "cli: gh for https://github.com"},
		{"remove_secret", "cli: gh"},
	}
	var got []messages.AuditRecord
	for _, r := range trail {
		if strings.HasSuffix(r.Action, "_secret") {
			got = append(got, r)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d secret lines, want %d:\n%s", len(got), len(want), rawTrail(t, d.Dir))
	}
	for i, w := range want {
		if r := got[i]; r.Action != w.action || r.Detail != w.detail || r.Code != messages.AuditOK || r.Kind != messages.AuditControl || r.At.IsZero() {
			t.Errorf("secret line %d is %+v, want %s %q ok with a time", i, r, w.action, w.detail)
		}
	}
	for where, b := range map[string]string{"the trail": string(rawTrail(t, d.Dir)), "the log": logs.String()} {
		for _, v := range []string{first, second} {
			if strings.Contains(b, v) {
				t.Errorf("%s holds the secret value %q", where, v)
			}
		}
	}
}

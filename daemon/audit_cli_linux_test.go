//go:build linux

package daemon_test

import (
	"bufio"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/sim"
	"github.com/buddi-dev/buddi/messages"
)

// `buddi audit` reads the trail a stopped daemon left, through the next
// one, filtered by agent, conversation and time; JSON lines or a table.
func TestAuditCommandFilters(t *testing.T) {
	d, ada := setup(t, simOpts(sim.Config{}, nil), "c1", 80)
	bob := d.AddAgent(t, "bob", false)
	d.Task(t, "bob", "c2", 80)
	d.Observe(t, ada, "c1")
	d.Observe(t, bob, "c2")
	mid := time.Now()
	d.Observe(t, ada, "c1")
	wantCode(t, d.Act(t, bob, "c2", map[string]any{"action": "navigate", "url": sim.Origin + "/p/1"}), "")
	d.Stop(t)
	d = daemontest.Start(t, d.Dir, simOpts(sim.Config{}, nil))
	run := buddiCLI(t, func() *daemontest.Daemon { return d })

	lines := func(args ...string) messages.AuditList {
		t.Helper()
		code, out, errOut := run(append([]string{"audit", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("buddi audit %v: exit %d: %s", args, code, errOut)
		}
		var list messages.AuditList
		sc := bufio.NewScanner(strings.NewReader(out))
		for sc.Scan() {
			var r messages.AuditRecord
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("a line of --json is not JSON: %q", sc.Text())
			}
			list = append(list, r)
		}
		return list
	}
	acts := func(list messages.AuditList) (n int) {
		for _, r := range list {
			if r.Kind == messages.AuditAct {
				n++
			}
		}
		return n
	}
	cases := map[string]struct {
		args []string
		acts int
		each func(r messages.AuditRecord) bool
	}{
		"everything":       {nil, 4, func(messages.AuditRecord) bool { return true }},
		"one agent":        {[]string{"--agent", "ada"}, 2, func(r messages.AuditRecord) bool { return r.Agent == "ada" }},
		"one conversation": {[]string{"--conversation", "c2"}, 2, func(r messages.AuditRecord) bool { return r.Conversation == "c2" }},
		"since":            {[]string{"--since", mid.UTC().Format(time.RFC3339Nano)}, 2, func(r messages.AuditRecord) bool { return !r.At.Before(mid) }},
		"until":            {[]string{"--until", mid.UTC().Format(time.RFC3339Nano)}, 2, func(r messages.AuditRecord) bool { return r.At.Before(mid) }},
		"a duration ago":   {[]string{"--since", "1h", "--agent", "bob", "--conversation", "c2"}, 2, func(r messages.AuditRecord) bool { return r.Agent == "bob" }},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			list := lines(c.args...)
			if n := acts(list); n != c.acts {
				t.Fatalf("%d act lines, want %d: %+v", n, c.acts, list)
			}
			for _, r := range list {
				if !c.each(r) {
					t.Fatalf("the line %+v does not match %v", r, c.args)
				}
			}
		})
	}

	code, out, _ := run("audit", "--agent", "bob")
	if code != 0 || !strings.HasPrefix(out, "TIME") || !strings.Contains(out, "navigate") || strings.Contains(out, " ada ") {
		t.Fatalf("the table (exit %d) is:\n%s\nwant a header and bob's navigate, nothing of ada", code, out)
	}
	if code, out, _ := run("audit", "--help"); code != 0 || !strings.Contains(out, "-conversation") {
		t.Fatalf("--help exits %d with:\n%s", code, out)
	}
	for _, bad := range [][]string{{"--since", "yesterday"}, {"--limit", "0"}} {
		code, _, errOut := run(append([]string{"audit"}, bad...)...)
		if code != 2 || !strings.Contains(errOut, "(bad_input)") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Fatalf("buddi audit %v exits %d with %q; want 2 and one line with its code", bad, code, errOut)
		}
	}
}

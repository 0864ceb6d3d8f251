package main_test

import (
	"strings"
	"testing"

	"github.com/buddi-dev/buddi/daemon/daemontest"
)

// osc52 sets the terminal's clipboard; the CSI sequences wipe and rewrite
// the row; U+202E reverses what follows on screen.
const hostile = "ok\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2K\r\x1b[1Afake row \u202eelif"

// An agent's task request carrying terminal escapes or bidi controls is
// refused at the API and never stored; whatever text does reach a CLI
// table (the owner's own, a page's) is printed with its controls escaped,
// so no byte of an escape sequence reaches the terminal.
func TestAgentTextCannotRewriteTheTerminal(t *testing.T) {
	dir := t.TempDir()
	s := serve(t, dir)
	r := runCLI(t, nil, "agent", "add", "ada", "--data", dir)
	token := strings.TrimSpace(r.stdout)
	c := daemontest.NewClient("http://"+s.addr, "")
	got := c.Tool(t, token, "browser.task", "c1", map[string]any{"description": hostile})
	daemontest.WantCode(t, got, "bad_input")
	if r := runCLI(t, nil, "task", "list", "--data", dir); strings.Contains(r.stdout, "c1") {
		t.Fatalf("the refused request was stored: %q", r.stdout)
	}
	r = runCLI(t, nil, "task", "start", "--agent", "ada", "--conversation", "c2", "--data", dir, hostile)
	if r.code != 0 {
		t.Fatalf("task start: exit %d err %q", r.code, r.stderr)
	}
	r = runCLI(t, nil, "task", "list", "--data", dir)
	if strings.ContainsAny(r.stdout, "\x1b\x07\r\u202e") {
		t.Fatalf("task list printed raw control characters: %q", r.stdout)
	}
	if !strings.Contains(r.stdout, `ok\x1b]52;c;`) || !strings.Contains(r.stdout, `\u202eelif`) {
		t.Fatalf("task list does not show the escapes: %q", r.stdout)
	}
}

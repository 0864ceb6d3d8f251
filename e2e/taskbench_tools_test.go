package e2e_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// The three tools of the task benchmark, each driven as its own
// descriptions teach.

// buddiTool is buddi serve with `buddi mcp` in front of it. Its policy is
// the one browser_act's description teaches: observe (in the same call as
// the navigate or click before it, with thenObserve); when the target is
// not shown, find; a read of a part, and the whole page last. With
// findFirst it searches first, to compare with a peer's own search.
type buddiTool struct {
	b     *buddi
	token string
	label string
	conv  string // the conversation of the task under way
	tasks int    // conversations begun
	obs   string // the latest observation id
	// then asks the next open or click to observe the page after it
	// (thenObserve), and seen is what that brought, for look to read.
	then bool
	seen string
}

// lookNext says whether the agent will look at the page after its next
// open or click: then buddi observes in the same call.
func (t *buddiTool) lookNext(will bool) { t.then = will }

func newBuddi(tb testing.TB, site, label string) *buddiTool {
	b := serve(tb, "", "BUDDI_PREVIEW_ORIGINS="+site)
	token := b.AddAgent(tb, "bench", false)
	return &buddiTool{b: b, token: token, label: label}
}

// begin gives each task a conversation of its own, with a task the owner
// granted, as a new agent would have; the last one is released first.
func (t *buddiTool) begin(tb testing.TB) {
	if t.conv != "" {
		t.b.Must(tb, "POST", "/api/browser/release", in{"conversation": t.conv})
		for i := 0; strings.Contains(string(t.b.Must(tb, "GET", "/api/browser/sessions", nil).Result), `"`+t.conv+`"`); i++ {
			if i == 500 {
				tb.Fatal("the released session did not go away")
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	t.tasks++
	t.conv = fmt.Sprintf("%s-%d", slug(t.label), t.tasks)
	t.b.Task(tb, "bench", t.conv, 80)
	t.obs, t.then, t.seen = "", false, ""
}

func (t *buddiTool) name() string { return t.label }

func (t *buddiTool) start(b *testing.B) *session {
	cmd := exec.Command(bin, "mcp", "--addr", t.b.addr)
	cmd.Env = append(os.Environ(), "BUDDI_AGENT_TOKEN="+t.token)
	return connect(b, cmd)
}

var (
	buddiObs = regexp.MustCompile(`"observation":\s*"([^"]+)"`)
	buddiURL = regexp.MustCompile(`"url":\s*"([^"]+)"`)
	// buddiCont is the continues object of a read that goes on.
	buddiCont = regexp.MustCompile(`"continues":\s*(\{[^}]*\})`)
	buddiRef  = regexp.MustCompile(`\[ref=(e\d+)\]`)
)

func (t *buddiTool) act(ctx context.Context, s *session, args map[string]any) (string, error) {
	args["conversation"] = t.conv
	out, err := s.call(ctx, buddimcp.ToolAct, args)
	if id := firstLine(buddiObs, out); id != "" {
		t.obs = id
	}
	return out, err
}

func (t *buddiTool) open(ctx context.Context, s *session, url string) error {
	_, err := t.changes(ctx, s, map[string]any{"action": "navigate", "url": url})
	return err
}

// changes sends an action that changes the page, observing after it when
// the agent said it will look.
func (t *buddiTool) changes(ctx context.Context, s *session, args map[string]any) (string, error) {
	if t.then {
		args["thenObserve"] = true
	}
	t.then, t.seen = false, ""
	out, err := t.act(ctx, s, args)
	if err == nil && args["thenObserve"] == true && firstLine(buddiObs, out) != "" {
		t.seen = out
	}
	return out, err
}

// look reads the observation the last action brought, or observes.
func (t *buddiTool) look(ctx context.Context, s *session) (string, error) {
	if seen := t.seen; seen != "" {
		t.seen = ""
		return seen, nil
	}
	return t.act(ctx, s, map[string]any{"action": "observe"})
}

func (t *buddiTool) search(ctx context.Context, s *session, words string) (string, error) {
	return t.act(ctx, s, map[string]any{"action": "find", "text": words})
}

// readNear reads within the first ref of the first match.
func (t *buddiTool) readNear(ctx context.Context, s *session, found string) (string, error) {
	_, body, _ := strings.Cut(found, "find:")
	ref := firstLine(buddiRef, body)
	if ref == "" {
		return "", errNoSearch
	}
	return t.act(ctx, s, map[string]any{"action": "observe", "within": ref})
}

// readAll reads the whole page, part after part, following continues.
func (t *buddiTool) readAll(ctx context.Context, s *session, done func(string) bool) (string, error) {
	args := map[string]any{"action": "observe", "fullPage": true}
	var all strings.Builder
	for range 40 {
		out, err := t.act(ctx, s, args)
		if err != nil {
			return all.String(), err
		}
		all.WriteString(out)
		if done(out) {
			return out, nil
		}
		c := firstLine(buddiCont, out)
		if c == "" {
			break
		}
		args = map[string]any{"action": "observe"}
		for _, kv := range regexp.MustCompile(`"(\w+)":\s*("[^"]*"|true)`).FindAllStringSubmatch(c, -1) {
			if kv[2] == "true" {
				args[kv[1]] = true
			} else {
				args[kv[1]] = strings.Trim(kv[2], `"`)
			}
		}
	}
	return all.String(), nil
}

// ref is the ref of a line naming role and name that is not marked hidden.
func (t *buddiTool) ref(text, role, name string) string {
	attrs := `((?: \[[^\]\n]*\])*)`
	for _, format := range []string{regexp.QuoteMeta(role) + ` "%s"` + attrs} {
		for _, exact := range []bool{true, false} {
			n := regexp.QuoteMeta(name)
			if !exact {
				n = `[^"\n]*` + n + `[^"\n]*`
			}
			re := regexp.MustCompile(strings.Replace(format, "%s", n, 1))
			for _, m := range re.FindAllStringSubmatch(text, -1) {
				if strings.Contains(m[1], "[hidden") {
					continue
				}
				if r := firstLine(buddiRef, m[1]); r != "" {
					return r
				}
			}
		}
	}
	return ""
}

func (t *buddiTool) click(ctx context.Context, s *session, ref, _ string) (string, error) {
	out, err := t.changes(ctx, s, map[string]any{"action": "click", "observation": t.obs, "target": map[string]any{"ref": ref}})
	return firstLine(buddiURL, out), err
}

func (t *buddiTool) submit(ctx context.Context, s *session, ref, _, value string) error {
	target := map[string]any{"ref": ref}
	if _, err := t.act(ctx, s, map[string]any{"action": "fill", "observation": t.obs, "target": target, "value": value}); err != nil {
		return err
	}
	_, err := t.act(ctx, s, map[string]any{"action": "submit", "observation": t.obs, "target": target})
	return err
}

func (t *buddiTool) wait(ctx context.Context, s *session, text string) (string, error) {
	return t.act(ctx, s, map[string]any{"action": "wait_for", "wait": map[string]any{"text": text}, "timeoutMs": 15000})
}

// peer is what the two peers share: a whole-page snapshot (the tool
// named snapshot) is their reading, taken again only after the page may
// have changed; they have no read of a part.
type peer struct {
	snapshot string
	fresh    bool
}

func (p *peer) look(ctx context.Context, s *session) (string, error) {
	p.fresh = true
	return s.call(ctx, p.snapshot, map[string]any{})
}

func (p *peer) readNear(context.Context, *session, string) (string, error) {
	return "", errNoSearch
}

func (p *peer) readAll(ctx context.Context, s *session, _ func(string) bool) (string, error) {
	if p.fresh {
		return "", errNoSearch
	}
	return p.look(ctx, s)
}

// playwrightMCP is Microsoft's Playwright MCP server. Its policy: a
// snapshot, or with find its own search (browser_find) first.
type playwrightMCP struct {
	peer
	dir  string
	find bool
}

func newPlaywrightMCP(dir string, find bool) *playwrightMCP {
	return &playwrightMCP{peer: peer{snapshot: "browser_snapshot"}, dir: dir, find: find}
}

func (p *playwrightMCP) name() string {
	if p.find {
		return "playwright-mcp find"
	}
	return "playwright-mcp"
}

func (p *playwrightMCP) start(b *testing.B) *session {
	args := []string{filepath.Join(p.dir, "@playwright/mcp/cli.js"), "--headless", "--isolated",
		"--executable-path", "/usr/bin/chromium", "--viewport-size", "1280x720", "--output-dir", b.TempDir()}
	if os.Getuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	return connect(b, exec.Command("node", args...))
}

var pwURL = regexp.MustCompile(`Page URL: (\S+)`)

func (p *playwrightMCP) open(ctx context.Context, s *session, url string) error {
	p.fresh = false
	_, err := s.call(ctx, "browser_navigate", map[string]any{"url": url})
	return err
}

func (p *playwrightMCP) search(ctx context.Context, s *session, words string) (string, error) {
	if !p.find {
		return "", errNoSearch
	}
	return s.call(ctx, "browser_find", map[string]any{"text": words})
}

func (p *playwrightMCP) ref(text, role, name string) string {
	if ref := byName(text, role+` "%s"[^\n]*\[ref=([^\]]+)\]`, name); ref != "" {
		return ref
	}
	// An element whose words are in elements of their own (code, strong)
	// is printed without a name, its words on the lines under it.
	var loose string
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		m := pwUnnamed.FindStringSubmatch(l)
		if m == nil || m[2] != role {
			continue
		}
		var words []string
		for _, c := range lines[i+1:] {
			if indent(c) <= len(m[1]) {
				break
			}
			if w := pwWords.FindStringSubmatch(c); w != nil {
				words = append(words, strings.Trim(w[1], `"`))
			}
		}
		got := strings.Join(words, " ")
		if got == name {
			return m[3]
		}
		if loose == "" && strings.Contains(got, name) {
			loose = m[3]
		}
	}
	return loose
}

var (
	pwUnnamed = regexp.MustCompile(`^(\s*)- (\w+) \[ref=([^\]]+)\]`)
	pwWords   = regexp.MustCompile(`^\s*- (?:text|code|strong|emphasis|generic)(?: \[[^\]]*\])*: (.+)$`)
)

func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

func (p *playwrightMCP) click(ctx context.Context, s *session, ref, what string) (string, error) {
	p.fresh = false
	out, err := s.call(ctx, "browser_click", map[string]any{"element": what, "target": ref})
	return firstLine(pwURL, out), err
}

func (p *playwrightMCP) submit(ctx context.Context, s *session, ref, what, value string) error {
	p.fresh = false
	_, err := s.call(ctx, "browser_type", map[string]any{"element": what, "target": ref, "text": value, "submit": true})
	return err
}

func (p *playwrightMCP) wait(ctx context.Context, s *session, text string) (string, error) {
	return s.call(ctx, "browser_wait_for", map[string]any{"text": text})
}

// devtoolsMCP is Google's Chrome DevTools MCP server. Its policy: a
// snapshot (it has no search of its own).
type devtoolsMCP struct {
	peer
	dir string
}

func (d *devtoolsMCP) name() string { return "devtools-mcp" }

func (d *devtoolsMCP) start(b *testing.B) *session {
	args := []string{filepath.Join(d.dir, "chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js"), "--headless", "--isolated",
		"--executablePath", "/usr/bin/chromium", "--viewport", "1280x720", "--no-page-id-routing",
		"--no-usage-statistics", "--no-performance-crux"}
	if os.Getuid() == 0 {
		args = append(args, "--chromeArg=--no-sandbox")
	}
	return connect(b, exec.Command("node", args...))
}

var (
	cdtNavigated = regexp.MustCompile(`Page navigated to (\S+?)\.?(?:\s|$)`)
	cdtSelected  = regexp.MustCompile(`(?m)^\d+: .*\((\S+)\) \[selected\]`)
)

func (d *devtoolsMCP) open(ctx context.Context, s *session, url string) error {
	d.fresh = false
	_, err := s.call(ctx, "navigate_page", map[string]any{"type": "url", "url": url})
	return err
}

func (d *devtoolsMCP) search(context.Context, *session, string) (string, error) {
	return "", errNoSearch
}

func (d *devtoolsMCP) ref(text, role, name string) string {
	return byName(text, `uid=(\S+) `+role+` "%s"`, name)
}

// click clicks the uid, then reads the selected page's URL from the
// answer (or lists the pages when it has none).
func (d *devtoolsMCP) click(ctx context.Context, s *session, ref, _ string) (string, error) {
	d.fresh = false
	out, err := s.call(ctx, "click", map[string]any{"uid": ref})
	if err != nil {
		return "", err
	}
	if url := firstLine(cdtNavigated, out); url != "" {
		return url, nil
	}
	if out, err = s.call(ctx, "list_pages", map[string]any{}); err != nil {
		return "", err
	}
	return firstLine(cdtSelected, out), nil
}

func (d *devtoolsMCP) submit(ctx context.Context, s *session, ref, _, value string) error {
	d.fresh = false
	if _, err := s.call(ctx, "fill", map[string]any{"uid": ref, "value": value}); err != nil {
		return err
	}
	_, err := s.call(ctx, "press_key", map[string]any{"key": "Enter"})
	return err
}

// wait answers with a snapshot of the page.
func (d *devtoolsMCP) wait(ctx context.Context, s *session, text string) (string, error) {
	d.fresh = true
	return s.call(ctx, "wait_for", map[string]any{"text": []string{text}})
}

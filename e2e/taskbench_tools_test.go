package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	buddimcp "github.com/buddi-dev/buddi/ui/mcp"
)

// The three tools of the task benchmark, each with the plainest script an
// agent would follow with it.

// buddiTool is buddi serve with `buddi mcp` in front of it.
type buddiTool struct {
	b     *buddi
	token string
}

func newBuddi(tb testing.TB, site string) *buddiTool {
	b := serve(tb, "", "BUDDI_PREVIEW_ORIGINS="+site)
	token := b.AddAgent(tb, "bench", false)
	b.Task(tb, "bench", "bench", 80)
	return &buddiTool{b: b, token: token}
}

func (t *buddiTool) name() string { return "buddi" }

func (t *buddiTool) start(b *testing.B) *session {
	cmd := exec.Command(bin, "mcp", "--addr", t.b.addr, "--conversation", "bench")
	cmd.Env = append(os.Environ(), "BUDDI_AGENT_TOKEN="+t.token)
	return connect(b, cmd)
}

var (
	buddiObs = regexp.MustCompile(`"observation":\s*"([^"]+)"`)
	buddiURL = regexp.MustCompile(`"url":\s*"([^"]+)"`)
)

func (t *buddiTool) act(ctx context.Context, s *session, args map[string]any) (string, error) {
	return s.call(ctx, buddimcp.ToolAct, args)
}

// run: navigate, find the link by name, click it.
func (t *buddiTool) run(ctx context.Context, s *session, base string, tk task) (bool, string) {
	if err := t.open(ctx, s, base+tk.start); err != nil {
		return false, err.Error()
	}
	found, err := t.act(ctx, s, map[string]any{"action": "find", "role": "link", "name": tk.link, "exact": true})
	if err != nil {
		return false, err.Error()
	}
	ref := firstLine(shownLink(tk.link), found)
	if ref == "" {
		return false, "find gave no shown link: " + clipText(found)
	}
	out, err := t.act(ctx, s, map[string]any{"action": "click", "observation": firstLine(buddiObs, found), "target": map[string]any{"ref": ref}})
	if err != nil {
		return false, err.Error()
	}
	return landed(firstLine(buddiURL, out), base+tk.want)
}

// shownLink finds the ref of a link line that is not marked hidden.
func shownLink(name string) *regexp.Regexp {
	return regexp.MustCompile(`link "` + regexp.QuoteMeta(name) + `" \[ref=(e\d+)\](?: \[fixed\])?(?: \(| in:|\n|$)`)
}

func landed(url, want string) (bool, string) {
	if strings.Contains(url, want) {
		return true, ""
	}
	return false, "landed on " + url
}

func (t *buddiTool) open(ctx context.Context, s *session, url string) error {
	_, err := t.act(ctx, s, map[string]any{"action": "navigate", "url": url})
	return err
}

func (t *buddiTool) look(ctx context.Context, s *session) (string, error) {
	return t.act(ctx, s, map[string]any{"action": "observe"})
}

// playwrightMCP is Microsoft's Playwright MCP server.
type playwrightMCP struct{ dir string }

func (p *playwrightMCP) name() string { return "playwright-mcp" }

func (p *playwrightMCP) start(b *testing.B) *session {
	args := []string{filepath.Join(p.dir, "@playwright/mcp/cli.js"), "--headless", "--isolated",
		"--executable-path", "/usr/bin/chromium", "--viewport-size", "1280x720", "--output-dir", b.TempDir()}
	if os.Getuid() == 0 {
		args = append(args, "--no-sandbox")
	}
	return connect(b, exec.Command("node", args...))
}

var pwURL = regexp.MustCompile(`Page URL: (\S+)`)

// run: navigate, take a snapshot (navigate's answer only names a file
// holding one), click the link's ref.
func (p *playwrightMCP) run(ctx context.Context, s *session, base string, tk task) (bool, string) {
	if err := p.open(ctx, s, base+tk.start); err != nil {
		return false, err.Error()
	}
	snap, err := p.look(ctx, s)
	if err != nil {
		return false, err.Error()
	}
	ref := byName(snap, `link "%s"[^\n]*\[ref=([^\]]+)\]`, tk.link)
	if ref == "" {
		// A link whose words are in a code element is printed without a
		// name, its text on a child line.
		ref = byName(snap, `link \[ref=([^\]]+)\][^\n]*\n\s*- /url: [^\n]*\n\s*- code \[ref=[^\]]+\]: %s\n`, tk.link)
	}
	if ref == "" {
		return false, "no such link in the snapshot"
	}
	out, err := s.call(ctx, "browser_click", map[string]any{"element": tk.link + " link", "target": ref})
	if err != nil {
		return false, err.Error()
	}
	return landed(firstLine(pwURL, out), base+tk.want)
}

// byName finds a capture of format (with %s for a link's name) for the
// exact name, or else for a name that holds it, as an agent reading the
// text would.
func byName(text, format, name string) string {
	exact := regexp.MustCompile(strings.Replace(format, "%s", regexp.QuoteMeta(name), 1))
	if m := firstLine(exact, text); m != "" {
		return m
	}
	loose := regexp.MustCompile(strings.Replace(format, "%s", `[^"\n]*`+regexp.QuoteMeta(name)+`[^"\n]*`, 1))
	return firstLine(loose, text)
}

func (p *playwrightMCP) open(ctx context.Context, s *session, url string) error {
	_, err := s.call(ctx, "browser_navigate", map[string]any{"url": url})
	return err
}

func (p *playwrightMCP) look(ctx context.Context, s *session) (string, error) {
	return s.call(ctx, "browser_snapshot", map[string]any{})
}

// devtoolsMCP is Google's Chrome DevTools MCP server.
type devtoolsMCP struct{ dir string }

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

// run: navigate, take a snapshot, click the link's uid, then read the
// selected page's URL from the answer (or list the pages when it has none).
func (d *devtoolsMCP) run(ctx context.Context, s *session, base string, tk task) (bool, string) {
	if err := d.open(ctx, s, base+tk.start); err != nil {
		return false, err.Error()
	}
	snap, err := d.look(ctx, s)
	if err != nil {
		return false, err.Error()
	}
	uid := byName(snap, `uid=(\S+) link "%s"`, tk.link)
	if uid == "" {
		return false, "no such link in the snapshot"
	}
	out, err := s.call(ctx, "click", map[string]any{"uid": uid})
	if err != nil {
		return false, err.Error()
	}
	url := firstLine(cdtNavigated, out)
	if url == "" {
		if out, err = s.call(ctx, "list_pages", map[string]any{}); err != nil {
			return false, err.Error()
		}
		url = firstLine(cdtSelected, out)
	}
	return landed(url, base+tk.want)
}

func (d *devtoolsMCP) open(ctx context.Context, s *session, url string) error {
	_, err := s.call(ctx, "navigate_page", map[string]any{"type": "url", "url": url})
	return err
}

func (d *devtoolsMCP) look(ctx context.Context, s *session) (string, error) {
	return s.call(ctx, "take_snapshot", map[string]any{})
}

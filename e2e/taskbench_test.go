package e2e_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/buddi-dev/buddi/daemon/daemontest"
	"github.com/buddi-dev/buddi/drivers/playwright/browsertest"
)

// The task benchmark: scripted agents finish navigation tasks on real
// documentation (see browsertest.Docs), once through buddi and once through
// each peer (Playwright MCP, Chrome DevTools MCP; pinned in
// testdata/peers), all driven over MCP with the SDK's client and all on
// /usr/bin/chromium. Each task: start on a page, reach a link by its name,
// click it, check the URL. Per task and tool it reports success, the bytes
// the agent had to read, the calls it made and the time; per start page,
// the default observation's size and time against each peer's snapshot.
//
// Run by `make bench` (which installs the peers and Python's docs first).

// task is one navigation task: on start, click the link named link and
// land on a URL that holds want.
type task struct {
	name, start, link, want string
}

var tasks = []task{
	{"book next chapter", "/book/ch04-01-what-is-ownership.html", "Next chapter", "/book/ch04-02-references-and-borrowing.html"},
	{"book toc, on screen", "/book/ch04-01-what-is-ownership.html", "Method Syntax", "/book/ch05-03-method-syntax.html"},
	{"book toc, scrolled away", "/book/ch04-01-what-is-ownership.html", "Final Project: Building a Multithreaded Web Server", "/book/ch20-00-final-project-a-web-server.html"},
	{"spec section link", "/ref/spec", "method expression", "/ref/spec#Method_expressions"},
	{"spec late link", "/ref/spec", "imaginary suffix", "/ref/spec#Imaginary_literals"},
	{"python next module", "/py/library/os.html", "os.path", "/py/library/os.path.html"},
	{"python deep method", "/py/library/os.html", "scandir()", "/py/library/os.html#os.scandir"},
	{"python index entry", "/py/library/index.html", "Built-in Functions", "/py/library/functions.html"},
	{"python small page", "/py/about.html", "Contributors to the Python Documentation", "/py/about.html#contributors-to-the-python-documentation"},
}

// record is one tool's run of one task.
type record struct {
	ok           bool
	bytes, calls int
	took         time.Duration
	why          string
}

// agentTool is one browser tool an agent drives over MCP.
type agentTool interface {
	name() string
	// start launches the tool and connects an MCP client to it.
	start(b *testing.B) *session
	// run does the task and returns whether it landed where it should.
	run(ctx context.Context, s *session, base string, tk task) (bool, string)
	// look takes the tool's own view of the current page (observe or
	// snapshot) and returns its text.
	look(ctx context.Context, s *session) (string, error)
	// open goes to url without reading anything else.
	open(ctx context.Context, s *session, url string) error
}

// session is one MCP client session that counts what the agent reads.
type session struct {
	cs           *mcp.ClientSession
	calls, bytes int
	dumped       int // answers written to $TASKBENCH_DUMP, a folder, when set
}

func (s *session) call(ctx context.Context, tool string, args map[string]any) (string, error) {
	s.calls++
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	s.bytes += b.Len()
	if dir := os.Getenv("TASKBENCH_DUMP"); dir != "" {
		s.dumped++
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d-%s.txt", s.dumped, tool)), []byte(b.String()), 0o600)
	}
	if res.IsError {
		return b.String(), fmt.Errorf("%s: %s", tool, clipText(b.String()))
	}
	return b.String(), nil
}

func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func connect(b *testing.B, cmd *exec.Cmd) *session {
	b.Helper()
	cs, err := daemontest.Connect(b, &mcp.CommandTransport{Command: cmd})
	if err != nil {
		b.Fatalf("connect to %s: %v", cmd.Path, err)
	}
	return &session{cs: cs}
}

// peersDir holds the pinned peers (package.json and its lock).
func peersDir(b *testing.B) string {
	dir, _ := filepath.Abs("testdata/peers/node_modules")
	if _, err := os.Stat(dir); err != nil {
		b.Fatalf("the peers are not installed: run `npm ci` in e2e/testdata/peers (make bench does): %v", err)
	}
	return dir
}

// firstLine returns the first capture of re in text, or "".
func firstLine(re *regexp.Regexp, text string) string {
	if m := re.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

func BenchmarkTasks(b *testing.B) {
	docs := browsertest.NewDocs(b)
	if !docs.Python {
		b.Fatalf("Python's documentation is not installed: run scripts/pages.sh --bench (make bench does)")
	}
	srv := httptest.NewServer(docs.Mux)
	b.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	peers := peersDir(b)
	tools := []agentTool{newBuddi(b, srv.URL), &playwrightMCP{dir: peers}, &devtoolsMCP{dir: peers}}
	results := map[string]map[string]record{}
	looks := map[string]map[string][]look{}
	for _, tl := range tools {
		s := tl.start(b)
		results[tl.name()], looks[tl.name()] = map[string]record{}, map[string][]look{}
		for _, tk := range tasks {
			s.calls, s.bytes = 0, 0
			t0 := time.Now()
			ok, why := tl.run(ctx, s, srv.URL, tk)
			results[tl.name()][tk.name] = record{ok: ok, bytes: s.bytes, calls: s.calls, took: time.Since(t0), why: why}
		}
		for _, page := range startPages() {
			looks[tl.name()][page] = measureLooks(ctx, b, tl, s, srv.URL+page)
		}
	}
	report := taskTable(tools, results) + lookTable(tools, looks)
	fmt.Println(report)
	b.ReportMetric(0, "ns/op")
}

func startPages() []string {
	seen := map[string]bool{}
	var out []string
	for _, tk := range tasks {
		if !seen[tk.start] {
			seen[tk.start] = true
			out = append(out, tk.start)
		}
	}
	return out
}

// look is one reading of a page: its size and how long it took.
type look struct {
	bytes int
	took  time.Duration
}

const looksPerPage = 5

func measureLooks(ctx context.Context, b *testing.B, tl agentTool, s *session, url string) []look {
	if err := tl.open(ctx, s, url); err != nil {
		b.Fatalf("%s: open %s: %v", tl.name(), url, err)
	}
	var out []look
	for range looksPerPage {
		t0 := time.Now()
		text, err := tl.look(ctx, s)
		if err != nil {
			b.Fatalf("%s: look at %s: %v", tl.name(), url, err)
		}
		out = append(out, look{bytes: len(text), took: time.Since(t0)})
	}
	return out
}

func median(ls []look) look {
	b := make([]int, len(ls))
	d := make([]time.Duration, len(ls))
	for i, l := range ls {
		b[i], d[i] = l.bytes, l.took
	}
	sort.Ints(b)
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return look{bytes: b[len(b)/2], took: d[len(d)/2]}
}

func taskTable(tools []agentTool, res map[string]map[string]record) string {
	var sb strings.Builder
	w := tabwriter.NewWriter(&sb, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "task\t")
	for _, tl := range tools {
		fmt.Fprintf(w, "%s ok\tbytes\tcalls\tms\t", tl.name())
	}
	fmt.Fprintln(w, "goals\t")
	for _, tk := range tasks {
		fmt.Fprintf(w, "%s\t", tk.name)
		for _, tl := range tools {
			r := res[tl.name()][tk.name]
			fmt.Fprintf(w, "%v\t%d\t%d\t%d\t", r.ok, r.bytes, r.calls, r.took.Milliseconds())
		}
		fmt.Fprintf(w, "%s\t\n", goals(tools, res, tk))
	}
	w.Flush()
	for _, tl := range tools {
		for _, tk := range tasks {
			if r := res[tl.name()][tk.name]; !r.ok {
				fmt.Fprintf(&sb, "%s, %s: %s\n", tl.name(), tk.name, r.why)
			}
		}
	}
	return sb.String()
}

// goals checks buddi against the better peer on one task: success, at most
// a quarter of the bytes, at most one call more.
func goals(tools []agentTool, res map[string]map[string]record, tk task) string {
	own := res[tools[0].name()][tk.name]
	best := record{bytes: 1 << 62, calls: 1 << 30}
	for _, tl := range tools[1:] {
		r := res[tl.name()][tk.name]
		if r.ok && r.bytes < best.bytes {
			best.bytes = r.bytes
		}
		if r.ok && r.calls < best.calls {
			best.calls = r.calls
		}
	}
	var missed []string
	if !own.ok {
		missed = append(missed, "failed")
	}
	if best.bytes < 1<<62 && own.bytes*4 > best.bytes {
		missed = append(missed, "bytes")
	}
	if best.calls < 1<<30 && own.calls > best.calls+1 {
		missed = append(missed, "calls")
	}
	if len(missed) == 0 {
		return "met"
	}
	return "MISSED " + strings.Join(missed, ",")
}

func lookTable(tools []agentTool, looks map[string]map[string][]look) string {
	var sb strings.Builder
	w := tabwriter.NewWriter(&sb, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "start page\t")
	for _, tl := range tools {
		fmt.Fprintf(w, "%s bytes\tms\t", tl.name())
	}
	fmt.Fprintln(w, "goals\t")
	var sizes []look
	for _, page := range startPages() {
		fmt.Fprintf(w, "%s\t", page)
		var best time.Duration = 1 << 62
		for i, tl := range tools {
			m := median(looks[tl.name()][page])
			fmt.Fprintf(w, "%d\t%d\t", m.bytes, m.took.Milliseconds())
			if i > 0 && m.took < best {
				best = m.took
			}
		}
		own := median(looks[tools[0].name()][page])
		sizes = append(sizes, own)
		verdict := "met"
		if own.took > best {
			verdict = "MISSED time"
		}
		fmt.Fprintf(w, "%s\t\n", verdict)
	}
	w.Flush()
	m := median(sizes)
	verdict := "met"
	if m.bytes > 4096 {
		verdict = "MISSED"
	}
	fmt.Fprintf(&sb, "median default observation of %s: %d bytes (goal 4096: %s); %d looks per page, medians shown\n",
		tools[0].name(), m.bytes, verdict, looksPerPage)
	return sb.String()
}

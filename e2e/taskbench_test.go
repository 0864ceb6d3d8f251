package e2e_test

import (
	"context"
	"encoding/json"
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

// The task benchmark: scripted agents do the tasks of taskbench_tasks_test.go
// on real documentation (see browsertest.Docs), through buddi and through
// each peer (Playwright MCP, Chrome DevTools MCP; pinned in testdata/peers),
// all driven over MCP with the SDK's client and all on /usr/bin/chromium.
// Each tool runs with the policy its descriptions teach (see agent); buddi
// and Playwright MCP run a second time searching first, to compare their
// own searches. Per task and tool it reports success, the bytes the agent
// had to read, the calls it made and the time; per start page, the default
// observation's size and time against each peer's snapshot.
//
// Every answer of every run is kept: in $TASKBENCH_DIR, by default
// e2e/taskbench-runs/<time>/ (ignored by git), one folder per tool and
// task, one file per call with its arguments first; the report beside them.
//
// Run by `make bench` (which installs the peers and Python's docs first).

// record is one tool's run of one task.
type record struct {
	ok           bool
	bytes, calls int
	took         time.Duration
	why          string
}

// benchTool is a tool the benchmark starts.
type benchTool interface {
	tool
	// start launches the tool and connects an MCP client to it.
	start(b *testing.B) *session
}

// session is one MCP client session that counts what the agent reads and
// keeps every answer in dir, when set.
type session struct {
	cs           *mcp.ClientSession
	calls, bytes int
	dir          string
	n            int
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
	s.keep(tool, args, b.String())
	if res.IsError {
		return b.String(), fmt.Errorf("%s: %s", tool, clipText(b.String()))
	}
	return b.String(), nil
}

// keep writes one answer to the session's folder: the call and its
// arguments on the first line, then the answer as the agent read it.
func (s *session) keep(tool string, args map[string]any, answer string) {
	if s.dir == "" {
		return
	}
	s.n++
	in, _ := json.Marshal(args)
	body := fmt.Sprintf("> %s %s\n%s", tool, in, answer)
	_ = os.WriteFile(filepath.Join(s.dir, fmt.Sprintf("%02d-%s.txt", s.n, tool)), []byte(body), 0o644)
}

// into points the session's answers at a new folder and starts its counts.
func (s *session) into(b *testing.B, dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	s.dir, s.n, s.calls, s.bytes = dir, 0, 0, 0
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

// runDir is where this run's answers go.
func runDir(b *testing.B) string {
	dir := os.Getenv("TASKBENCH_DIR")
	if dir == "" {
		dir = filepath.Join("taskbench-runs", time.Now().UTC().Format("20060102-150405"))
	}
	dir, _ = filepath.Abs(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	return dir
}

var unsafeName = regexp.MustCompile(`[^a-z0-9]+`)

// slug is a name as a folder name.
func slug(s string) string {
	return strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(s), "-"), "-")
}

// firstLine returns the first capture of re in text, or "".
func firstLine(re *regexp.Regexp, text string) string {
	if m := re.FindStringSubmatch(text); m != nil {
		return m[1]
	}
	return ""
}

// Names of the runs the goals compare.
const (
	ownPolicy  = "buddi"
	ownFind    = "buddi find"
	peerFind   = "playwright-mcp find"
	peerPolicy = "(snapshot)"
)

func BenchmarkTasks(b *testing.B) {
	docs := browsertest.NewDocs(b)
	if !docs.Python {
		b.Fatalf("Python's documentation is not installed: run scripts/pages.sh --bench (make bench does)")
	}
	srv := httptest.NewServer(docs.Mux)
	b.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	peers := peersDir(b)
	dir := runDir(b)
	own := newBuddi(b, srv.URL, ownPolicy)
	runs := []struct {
		t    benchTool
		a    *agent
		look bool // measure its default reading on each start page
	}{
		{own, &agent{t: own}, true},
		{nil, nil, false}, // buddi searching first, filled below
		{newPlaywrightMCP(peers, false), nil, true},
		{newPlaywrightMCP(peers, true), nil, false},
		{&devtoolsMCP{peer: peer{snapshot: "take_snapshot"}, dir: peers}, nil, true},
	}
	ownF := &buddiTool{b: own.b, token: own.token, label: ownFind}
	runs[1].t, runs[1].a = ownF, &agent{t: ownF, findFirst: true}
	runs[3].a = &agent{t: runs[3].t, findFirst: true}
	var names []string
	results := map[string]map[string]record{}
	var lookers []looker
	for _, r := range runs {
		if r.a == nil {
			r.a = &agent{t: r.t}
		}
		name := r.t.name()
		names = append(names, name)
		s := r.t.start(b)
		results[name] = map[string]record{}
		for _, tk := range tasks {
			s.into(b, filepath.Join(dir, slug(name), slug(tk.name)))
			if bt, ok := r.t.(interface{ begin(testing.TB) }); ok {
				bt.begin(b)
			}
			t0 := time.Now()
			ok, why := r.a.run(ctx, s, srv.URL, tk)
			results[name][tk.name] = record{ok: ok, bytes: s.bytes, calls: s.calls, took: time.Since(t0), why: why}
		}
		if r.look {
			lookers = append(lookers, looker{t: r.t, s: s})
		}
	}
	looks := measureLooks(ctx, b, lookers, srv.URL, dir)
	report := taskTable(names, results) + lookTable(names, looks) +
		fmt.Sprintf("every answer of this run is in %s\n", dir)
	_ = os.WriteFile(filepath.Join(dir, "report.txt"), []byte(report), 0o644)
	fmt.Println(report)
	b.ReportMetric(0, "ns/op")
}

// look is one reading of a page: its size and how long it took.
type look struct {
	bytes int
	took  time.Duration
}

const looksPerPage = 7

// looker is a tool whose default reading is measured, with its session.
type looker struct {
	t benchTool
	s *session
}

// measureLooks reads each start page looksPerPage times with every tool,
// the tools taking turns within each round and the first of them moving
// on by one each round, so that each is measured beside the others on
// the machine as it is then (a run of one tool's readings after another's
// gave a tool whatever the machine was doing in its minute). A tool with
// conversations starts a new one on each page, to stay within its steps.
func measureLooks(ctx context.Context, b *testing.B, ls []looker, site, dir string) map[string]map[string][]look {
	out := map[string]map[string][]look{}
	for _, l := range ls {
		out[l.t.name()] = map[string][]look{}
	}
	for _, page := range startPages() {
		for _, l := range ls {
			if bt, ok := l.t.(interface{ begin(testing.TB) }); ok {
				bt.begin(b)
			}
			l.s.into(b, filepath.Join(dir, slug(l.t.name()), "look-"+slug(page)))
			if err := l.t.open(ctx, l.s, site+page); err != nil {
				b.Fatalf("%s: open %s: %v", l.t.name(), page, err)
			}
		}
		for round := range looksPerPage {
			for i := range ls {
				l := ls[(round+i)%len(ls)]
				t0 := time.Now()
				text, err := l.t.look(ctx, l.s)
				if err != nil {
					b.Fatalf("%s: look at %s: %v", l.t.name(), page, err)
				}
				out[l.t.name()][page] = append(out[l.t.name()][page], look{bytes: len(text), took: time.Since(t0)})
			}
		}
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

func taskTable(names []string, res map[string]map[string]record) string {
	var sb strings.Builder
	w := tabwriter.NewWriter(&sb, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "task\t")
	for _, n := range names {
		fmt.Fprintf(w, "%s ok\tbytes\tcalls\tms\t", n)
	}
	fmt.Fprintln(w, "goals\t")
	for _, tk := range tasks {
		fmt.Fprintf(w, "%s\t", tk.name)
		for _, n := range names {
			r := res[n][tk.name]
			fmt.Fprintf(w, "%v\t%d\t%d\t%d\t", r.ok, r.bytes, r.calls, r.took.Milliseconds())
		}
		fmt.Fprintf(w, "%s\t\n", goals(names, res, tk))
	}
	w.Flush()
	for _, n := range names {
		for _, tk := range tasks {
			if r := res[n][tk.name]; !r.ok {
				fmt.Fprintf(&sb, "%s, %s: %s\n", n, tk.name, r.why)
			}
		}
	}
	return sb.String()
}

// goals checks buddi against the better peer on one task: done where a
// peer did it, at most a quarter of the bytes of the better snapshot run,
// at most one call more; and searching first, at most 0.8 of Playwright
// MCP's bytes searching first.
func goals(names []string, res map[string]map[string]record, tk task) string {
	own := res[ownPolicy][tk.name]
	best := record{bytes: 1 << 62, calls: 1 << 30}
	peerDid := false
	for _, n := range names {
		r := res[n][tk.name]
		if n == ownPolicy || n == ownFind || !r.ok {
			continue
		}
		peerDid = true
		if n == peerFind {
			continue
		}
		best.bytes = min(best.bytes, r.bytes)
		best.calls = min(best.calls, r.calls)
	}
	var missed []string
	if !own.ok && peerDid {
		missed = append(missed, "failed")
	}
	if best.bytes < 1<<62 && own.bytes*4 > best.bytes {
		missed = append(missed, fmt.Sprintf("bytes (%.2f)", float64(own.bytes)/float64(best.bytes)))
	}
	if best.calls < 1<<30 && own.calls > best.calls+1 {
		missed = append(missed, "calls")
	}
	if f, pf := res[ownFind][tk.name], res[peerFind][tk.name]; pf.ok && f.bytes*5 > pf.bytes*4 {
		missed = append(missed, fmt.Sprintf("find bytes (%.2f)", float64(f.bytes)/float64(pf.bytes)))
	}
	if len(missed) == 0 {
		return "met"
	}
	return "MISSED " + strings.Join(missed, ",")
}

func lookTable(names []string, looks map[string]map[string][]look) string {
	var sb strings.Builder
	w := tabwriter.NewWriter(&sb, 2, 4, 2, ' ', tabwriter.AlignRight)
	var measured []string
	for _, n := range names {
		if len(looks[n]) > 0 {
			measured = append(measured, n)
		}
	}
	fmt.Fprint(w, "start page\t")
	for _, n := range measured {
		fmt.Fprintf(w, "%s bytes\tms\t", n)
	}
	fmt.Fprintln(w, "goals\t")
	var sizes []look
	for _, page := range startPages() {
		fmt.Fprintf(w, "%s\t", page)
		var best time.Duration = 1 << 62
		for _, n := range measured {
			m := median(looks[n][page])
			fmt.Fprintf(w, "%d\t%d\t", m.bytes, m.took.Milliseconds())
			if n != ownPolicy && m.took < best {
				best = m.took
			}
		}
		own := median(looks[ownPolicy][page])
		sizes = append(sizes, own)
		verdict := "met"
		if own.took > best {
			verdict = "MISSED time"
		}
		fmt.Fprintf(w, "%s\t\n", verdict)
	}
	w.Flush()
	m := median(sizes)
	fmt.Fprintf(&sb, "median default observation of %s: %d bytes; %d looks per page, the tools taking turns, medians shown\n", ownPolicy, m.bytes, looksPerPage)
	return sb.String()
}

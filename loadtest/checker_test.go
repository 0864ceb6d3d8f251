package loadtest_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/loadtest"
)

// TestCheckerCatchesBrokenRuns feeds the checker the event streams in
// testdata/checker, each a deliberately broken (or healthy) run, and wants
// exactly the invariants the stream's "# want:" line names to fail.
func TestCheckerCatchesBrokenRuns(t *testing.T) {
	files, err := filepath.Glob("testdata/checker/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no event streams in testdata/checker: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) {
			want, c := replay(t, f)
			var got []string
			for _, r := range c.Results() {
				if r.Status == "fail" {
					got = append(got, r.Name)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				for _, r := range c.Results() {
					t.Log(r, r.Examples)
				}
				t.Fatalf("failed invariants %v, want %v", got, want)
			}
		})
	}
}

// replay runs one stream through a checker on a fake clock.
func replay(t *testing.T, path string) ([]string, *loadtest.Checker) {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	clock := time.Unix(0, 0)
	c := loadtest.NewChecker(func() time.Time { return clock }, 500*time.Millisecond)
	acts := map[string]loadtest.Act{}
	var want []string
	sc := bufio.NewScanner(fh)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if w, ok := strings.CutPrefix(line, "# want:"); ok {
			want = strings.Fields(w)
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(line, "#") {
			continue
		}
		arg := func(i int) string {
			if i >= len(f) {
				t.Fatalf("%s:%d: %q needs more fields", path, n, line)
			}
			return f[i]
		}
		switch f[0] {
		case "sent":
			acts[arg(1)] = c.Sent(arg(2), arg(3), len(f) > 4 && f[4] == "probe")
		case "done":
			code := arg(2)
			if code == "ok" {
				code = ""
			}
			c.Done(acts[arg(1)], code)
		case "input":
			c.Input(arg(1), arg(2))
		case "takeover":
			c.TookOver(arg(1))
		case "paused":
			c.Paused(arg(1))
		case "resume":
			c.Resuming(arg(1))
		case "stop":
			c.Stopped()
		case "health":
			c.Health(arg(1) == "stopped")
		case "resumeall":
			c.ResumingAll()
		case "wait":
			d, err := time.ParseDuration(arg(1))
			if err != nil {
				t.Fatalf("%s:%d: %v", path, n, err)
			}
			clock = clock.Add(d)
		case "memory":
			c.Memory(num(t, arg(1)), num(t, arg(2)), num(t, arg(3)), int(num(t, arg(4))))
		default:
			t.Fatalf("%s:%d: unknown event %q", path, n, f[0])
		}
	}
	return want, c
}

func num(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestCheckerReportsWhatItCannotCheck(t *testing.T) {
	c := loadtest.NewChecker(nil, time.Second)
	c.NotApplicable(loadtest.HandFrames, "no remote hands in this run (--hands 0)")
	for _, r := range c.Results() {
		if r.Name == "hand_frames" && (r.Status != "n/a" || r.Note != "no remote hands in this run (--hands 0)") {
			t.Fatalf("hand frames reported as %s (%s), want n/a with the reason", r.Status, r.Note)
		}
	}
	if !loadtest.Passed(c.Results()) {
		t.Fatal("an empty run should pass")
	}
}

package audit_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/buddi-dev/buddi/messages"
	"github.com/buddi-dev/buddi/ui/audit"
)

func line(i int) *messages.AuditRecord {
	return &messages.AuditRecord{At: time.Unix(1_700_000_000, 0).Add(time.Duration(i) * time.Second).UTC(), Kind: messages.AuditAct,
		Agent: "ada", Conversation: fmt.Sprintf("c%d", i%7), Action: "click", Target: "e12", Code: messages.AuditOK,
		URL: "https://example.com/p/" + fmt.Sprint(i)}
}

// A clean Close writes every line added before it, in order, to a file
// only the owner may read.
func TestCloseWritesEveryAddedLine(t *testing.T) {
	dir := t.TempDir()
	l, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 20000
	for i := range n {
		l.Add(line(i))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := audit.Read(dir, messages.AuditFilter{Limit: messages.AuditMaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("read %d lines after a clean close, want %d", len(got), n)
	}
	for i, r := range got {
		if r.URL != line(i).URL {
			t.Fatalf("line %d is %s, want %s: lines out of order", i, r.URL, line(i).URL)
		}
	}
	st, err := os.Stat(filepath.Join(dir, audit.Dir, audit.File))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("the trail's mode is %v, want 0600", st.Mode().Perm())
	}
}

// Rotation keeps the files within (Keep+1) × MaxBytes and keeps the
// newest lines whole.
func TestRotationKeepsTheTrailBounded(t *testing.T) {
	dir := t.TempDir()
	const maxBytes, keep = 8192, 3
	l, err := audit.Open(dir, audit.Options{MaxBytes: maxBytes, Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	const n = 5000
	for i := range n {
		l.Add(line(i))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, audit.Dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != keep+1 {
		t.Fatalf("the trail has %d files, want %d (the current one and %d rotated)", len(entries), keep+1, keep)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > maxBytes || info.Mode().Perm() != 0o600 {
			t.Fatalf("%s is %d bytes with mode %v, want at most %d bytes and 0600", e.Name(), info.Size(), info.Mode().Perm(), maxBytes)
		}
	}
	got, err := audit.Read(dir, messages.AuditFilter{Limit: messages.AuditMaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) >= n {
		t.Fatalf("read %d lines, want some but fewer than the %d written", len(got), n)
	}
	for i, r := range got {
		if want := line(n - len(got) + i).URL; r.URL != want {
			t.Fatalf("line %d is %s, want %s: the newest lines, contiguous", i, r.URL, want)
		}
	}
}

// The filters pick by agent, conversation and time, and the limit keeps
// the newest lines.
func TestReadFilters(t *testing.T) {
	dir := t.TempDir()
	l, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 70 {
		r := line(i)
		if i%2 == 1 {
			r.Agent = "bob"
		}
		l.Add(r)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	at := func(i int) time.Time { return line(i).At }
	cases := map[string]struct {
		f    messages.AuditFilter
		want int
	}{
		"everything":         {messages.AuditFilter{}, 70},
		"one agent":          {messages.AuditFilter{Agent: "bob"}, 35},
		"one conversation":   {messages.AuditFilter{Conversation: "c3"}, 10},
		"agent and conv":     {messages.AuditFilter{Agent: "ada", Conversation: "c0"}, 5},
		"since":              {messages.AuditFilter{Since: at(60)}, 10},
		"until is exclusive": {messages.AuditFilter{Until: at(10)}, 10},
		"a window":           {messages.AuditFilter{Since: at(10), Until: at(20)}, 10},
		"newest few":         {messages.AuditFilter{Limit: 4}, 4},
		"nobody":             {messages.AuditFilter{Agent: "eve"}, 0},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := audit.Read(dir, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != c.want {
				t.Fatalf("got %d lines, want %d", len(got), c.want)
			}
			for _, r := range got {
				if !c.f.Wants(&r) {
					t.Fatalf("line %+v does not match the filter", r)
				}
			}
			if name == "newest few" && got[3].URL != line(69).URL {
				t.Fatalf("the last of the newest is %s, want %s", got[3].URL, line(69).URL)
			}
		})
	}
}

// A read of a data directory with no trail yet is empty, not an error.
func TestReadWithoutATrail(t *testing.T) {
	got, err := audit.Read(t.TempDir(), messages.AuditFilter{})
	if err != nil || len(got) != 0 {
		t.Fatalf("got %d lines and %v, want none and no error", len(got), err)
	}
}

// Flush returns once every line added before it is in the file: a read
// after it sees them while the log is still open.
func TestFlushMakesAddedLinesReadable(t *testing.T) {
	dir := t.TempDir()
	l, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	for round := 1; round <= 3; round++ {
		for i := range 500 {
			l.Add(line(i))
		}
		if err := l.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		got, err := audit.Read(dir, messages.AuditFilter{Limit: messages.AuditMaxLimit})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 500*round {
			t.Fatalf("round %d: read %d lines after Flush, want %d", round, len(got), 500*round)
		}
	}
}

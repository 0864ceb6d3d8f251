package loadtest

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
)

// logCount is the in-process daemon's log when the caller gives none: it
// keeps no lines, only how often each warning or error was logged, so a
// run with injected crashes stays quiet and the report still says what the
// daemon complained about.
type logCount struct {
	mu sync.Mutex
	n  map[string]int64
}

func newLogCount() *logCount { return &logCount{n: map[string]int64{}} }

func (l *logCount) Enabled(_ context.Context, lv slog.Level) bool { return lv >= slog.LevelWarn }

func (l *logCount) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.n[r.Level.String()+": "+r.Message]++
	l.mu.Unlock()
	return nil
}

func (l *logCount) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCount) WithGroup(string) slog.Handler      { return l }

// top is the most frequent lines, most frequent first.
func (l *logCount) top(k int) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	type kv struct {
		msg string
		n   int64
	}
	all := make([]kv, 0, len(l.n))
	for m, n := range l.n {
		all = append(all, kv{m, n})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n || all[i].n == all[j].n && all[i].msg < all[j].msg })
	out := []string{}
	for _, e := range all[:min(k, len(all))] {
		out = append(out, fmt.Sprintf("daemon logged %q %d times", e.msg, e.n))
	}
	return out
}

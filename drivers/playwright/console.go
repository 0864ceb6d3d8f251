package playwright

import (
	"strings"
	"sync"
	"time"

	"github.com/buddi-dev/buddi/messages"
)

// A tab keeps at most consoleCap console errors, each cut to consoleLine
// bytes: a page may log without end, and log megabytes at a time.
const (
	consoleCap  = 100
	consoleLine = 1000
)

// consoleRing keeps a tab's latest console errors and uncaught exceptions.
type consoleRing struct {
	mu      sync.Mutex
	lines   []string
	dropped int
}

func (r *consoleRing) add(kind, text string) {
	line := time.Now().UTC().Format("15:04:05") + " " + kind + ": " + messages.Clip(strings.TrimSpace(text), consoleLine)
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.lines) == consoleCap {
		copy(r.lines, r.lines[1:])
		r.lines = r.lines[:consoleCap-1]
		r.dropped++
	}
	r.lines = append(r.lines, line)
}

func (r *consoleRing) text(limit int) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var b strings.Builder
	if r.dropped > 0 {
		b.WriteString("(earlier errors dropped)\n")
	}
	for _, l := range r.lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return cut(b.String(), limit)
}

// cut shortens s to at most limit bytes on a rune boundary, preferring a line end.
func cut(s string, limit int) (string, bool) {
	if len(s) <= limit {
		return s, false
	}
	i := limit
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	if j := strings.LastIndexByte(s[:i], '\n'); j > limit/2 {
		i = j + 1
	}
	return s[:i], true
}

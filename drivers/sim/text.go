package sim

import (
	"strings"
	"unicode/utf8"

	"github.com/buddi-dev/buddi/drivers"
)

// dom returns the active page's visible text, capped at Action.MaxChars
// (default 8000).
func (t *Tabs) dom(a *drivers.Action) (*drivers.Outcome, error) {
	p, err := t.activePage()
	if err != nil {
		return nil, err
	}
	limit := a.MaxChars
	if limit <= 0 {
		limit = defaultDOMMax
	}
	return &drivers.Outcome{Result: drivers.Done, URL: p.url, Title: p.title, Text: prefix(p.text, limit)}, nil
}

// consoleText returns the console errors the conversation's pages logged,
// oldest first, one a line.
func (t *Tabs) consoleText() (*drivers.Outcome, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil, errClosed()
	}
	return &drivers.Outcome{Result: drivers.Done, Text: strings.Join(t.console, "\n")}, nil
}

// prefix is at most n bytes of s, cut at a character boundary.
func prefix(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// activePage is the active tab's page, read under the lock.
func (t *Tabs) activePage() (*page, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tb, err := t.activeTab()
	if err != nil {
		return nil, err
	}
	return tb.page(), nil
}

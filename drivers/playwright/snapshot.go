package playwright

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	pw "github.com/mxschmitt/playwright-go"
)

// Tree bounds.
const (
	defaultTreeChars = 12000 // viewport-first observations
	defaultFullChars = 50000 // whole-page observations
	maxRoots         = 40    // subtrees a viewport-first observation may snapshot
)

// tree returns the observation's tree text and whether it leaves part of
// the page out. Viewport-first, it snapshots the small subtrees that cover
// the viewport and then the next two screens, in that order, until max; it
// never walks the rest of the document. The whole page is one snapshot.
func (t *tab) tree(ctx context.Context, full bool, max int) (string, bool, error) {
	main := t.page.MainFrame()
	if !full {
		var r struct {
			Roots []string `json:"roots"`
			Whole bool     `json:"whole"`
		}
		if err := probe(ctx, main, "roots "+strconv.Itoa(maxRoots), &r); err != nil {
			return "", false, err
		}
		if len(r.Roots) > 0 {
			return snapshotRoots(ctx, main, r.Roots, max, !r.Whole)
		}
	}
	s, err := call(ctx, func() (string, error) {
		return t.page.AriaSnapshot(pw.PageAriaSnapshotOptions{Mode: pw.AriaSnapshotModeAi, Timeout: ms(ctx, 15*time.Second)})
	})
	if err != nil {
		return "", false, err
	}
	text, truncated := cut(s, max)
	return text, truncated, nil
}

// rootWave is how many root snapshots are asked for at once.
const rootWave = 8

// snapshotRoots concatenates the AI-mode snapshots of roots, in order, until
// max. Roots are asked for in waves so that round trips overlap.
func snapshotRoots(ctx context.Context, f pw.Frame, roots []string, max int, partial bool) (string, bool, error) {
	var b strings.Builder
	truncated := partial
	for i := 0; i < len(roots); i += rootWave {
		if b.Len() >= max {
			truncated = true
			break
		}
		parts, err := snapshotWave(ctx, f, roots[i:min(i+rootWave, len(roots))])
		if err != nil {
			return "", false, err
		}
		for _, s := range parts {
			if s = strings.TrimRight(s, "\n"); strings.TrimSpace(s) != "" {
				b.WriteString(s)
				b.WriteByte('\n')
			}
		}
	}
	text, cutOff := cut(b.String(), max)
	return text, truncated || cutOff, nil
}

// snapshotWave snapshots a few roots at once. A root that went away
// meanwhile gives ""; a page that does not answer fails the wave.
func snapshotWave(ctx context.Context, f pw.Frame, roots []string) ([]string, error) {
	parts := make([]string, len(roots))
	errs := make([]error, len(roots))
	var wg sync.WaitGroup
	for i, sel := range roots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loc := f.Locator(sel)
			parts[i], errs[i] = call(ctx, func() (string, error) {
				return loc.AriaSnapshot(pw.LocatorAriaSnapshotOptions{Mode: pw.AriaSnapshotModeAi, Timeout: ms(ctx, 3*time.Second)})
			})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil && (ctx.Err() != nil || isTimeout(err) || isClosed(err) || asDriverError(err) != nil) {
			return nil, err
		}
	}
	return parts, nil
}

package playwright

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers/walker"
)

// Tree bounds, in characters.
const (
	defaultTreeChars = 3800  // a viewport observation, outline included (UTF-8 keeps it near 4 KB)
	defaultFullChars = 50000 // one part of a full-page or region read
	defaultFindChars = 8000  // find answers are bounded by match count first
)

// The engine's read arguments and answers (drivers/walker).
type (
	readArgs   = walker.ReadArgs
	readAnswer = walker.Answer
)

// read runs one read in frame f: the engine walks the document in one
// call, numbering new refs from the conversation's counter.
func (t *tab) read(ctx context.Context, f pw.Frame, args readArgs) (*readAnswer, error) {
	args.Base = t.owner.refBase()
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	var ans readAnswer
	done, err := t.reads(ctx)
	if err != nil {
		return nil, err
	}
	err = t.probe(ctx, f, "observe "+url.PathEscape(string(raw)), &ans)
	done(err)
	if err != nil {
		return nil, err
	}
	if ans.Error != "" {
		return nil, staleRef(ans.Ref, "is no longer on the page")
	}
	t.owner.refsUsed(ans.Next)
	if len(ans.Profile) > 0 {
		t.owner.d.cfg.Logger.Debug("read", "walk_ms", ans.Profile["walk"], "render_ms", ans.Profile["render"],
			"outline_ms", ans.Profile["outline"], "entries", ans.Profile["entries"], "visited", ans.Profile["visited"])
	}
	return &ans, nil
}

// readWithFrames reads f and, when f is the page itself, its frames: the
// iframes a view or full read showed, or every frame for a find. Each ref's
// frame is recorded in frames.
func (t *tab) readWithFrames(ctx context.Context, f pw.Frame, args readArgs, frames map[string]pw.Frame) (*readAnswer, error) {
	ans, err := t.read(ctx, f, args)
	if err != nil {
		return nil, err
	}
	switch {
	case f != t.page.MainFrame():
		for ref := range ans.Infos {
			frames[ref] = f
		}
	case args.Find != nil:
		t.findInFrames(ctx, ans, frames, args)
	default:
		t.withFrames(ctx, ans, frames, args.Max)
	}
	return ans, nil
}

// findInFrames runs a find in each of the page's frames (frames inside
// frames too) and adds what
// matched there after the page's own matches, one heading per frame with
// its number and address. Only a page with frames pays for more calls.
func (t *tab) findInFrames(ctx context.Context, ans *readAnswer, frames map[string]pw.Frame, args readArgs) {
	all := t.page.Frames() // the page first, then every frame, nested ones too
	if len(all) < 2 {
		return
	}
	nos := map[pw.Frame]int{}
	defer t.numberFrames(nos)
	for _, c := range all {
		if c == t.page.MainFrame() || c.IsDetached() {
			continue
		}
		nos[c] = len(nos) + 1
		sub, err := t.read(ctx, c, args)
		if err != nil || len(sub.Infos) == 0 {
			continue
		}
		ans.AddFound(sub, nos[c], c.URL())
		for ref := range sub.Infos {
			frames[ref] = c
		}
	}
}

// withFrames reads each iframe the main read showed, in its own frame, and
// puts its lines under the iframe's line. Each ref's frame is recorded.
func (t *tab) withFrames(ctx context.Context, ans *readAnswer, frames map[string]pw.Frame, limit int) {
	if len(ans.Frames) == 0 {
		return
	}
	used := map[pw.Frame]bool{}
	nos := map[pw.Frame]int{}
	defer t.numberFrames(nos)
	children := t.page.MainFrame().ChildFrames()
	for _, slot := range ans.Frames {
		var f pw.Frame
		for _, c := range children {
			if !used[c] && !c.IsDetached() && c.URL() == slot.Src {
				f = c
				break
			}
		}
		if f == nil {
			continue
		}
		used[f] = true
		nos[f] = len(nos) + 1
		sub, err := t.read(ctx, f, readArgs{Mode: "view", Max: limit / 2})
		if err != nil || strings.TrimSpace(sub.Tree) == "" {
			continue
		}
		ans.Nest(slot.Ref, sub)
		for ref := range sub.Infos {
			frames[ref] = f
		}
	}
}

package playwright

import (
	"context"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
)

// A target picked by what it is (a role and name, a label, a placeholder,
// a text) rather than by ref needs the page's tree unchanged since the
// observation it was picked from: the tab remembers how that observation
// read the page, and reads it again the same way before input.

// remember keeps how the latest observation of the tab read it.
func (t *tab) remember(opts drivers.ObserveOptions) {
	opts.Screenshot = false
	t.mu.Lock()
	t.seen = opts
	t.mu.Unlock()
}

// numberFrames keeps the numbers a view gave the frames it read (1, 2, …
// in the order it showed them; the page itself is 0).
func (t *tab) numberFrames(nos map[pw.Frame]int) {
	t.mu.Lock()
	t.frameNos = nos
	t.mu.Unlock()
}

// frameNumber is a frame's number in the latest view; 0 for the page.
func (t *tab) frameNumber(f pw.Frame) int {
	if f == nil || f.ParentFrame() == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.frameNos[f]
}

// sameTree refuses with stale_ref unless the tab, read again as its latest
// observation read it, shows the tree tree.
func (t *tab) sameTree(ctx context.Context, ref, tree string) error {
	t.mu.Lock()
	opts := t.seen
	nos := t.frameNos
	t.mu.Unlock()
	args, f, err := t.readArgs(opts)
	if err != nil {
		return err
	}
	ans, err := t.readWithFrames(ctx, f, args, map[string]pw.Frame{})
	t.numberFrames(nos)
	if err != nil {
		return t.failed(err, notAnswering)
	}
	if ans.Tree != tree {
		return staleRef(ref, "was named by what it is, and the page's tree changed since the observation (a target by role, label, placeholder or text needs it unchanged); use a ref from a new observation")
	}
	return nil
}

package extension

import (
	"context"
	"encoding/json"
	"maps"

	"github.com/buddi-dev/buddi/drivers"
)

// A tab's frames are read like the Playwright driver reads them: each in
// its own document, with the engine in an isolated world there, the
// conversation's ref counter running on from one document to the next so
// that refs stay unique across frames. A view or full read puts each
// frame it showed under its iframe's line; a find searches every frame,
// nested ones too. The extension reaches a frame by its Chrome frame id:
// in the page's process directly, and in a process of its own (a
// cross-site frame) through the child session Chrome gives for it.
//
// Each ref remembers the frame it was read in, so that acting on it goes
// to that document; the frame's address is part of its fingerprint, and a
// frame that closed or went elsewhere leaves its refs stale.

// frameGone is the extension's answer for a frame that closed or whose
// document it no longer knows.
const frameGone = "frame_gone"

// maxFrameDepth bounds how far the focus is followed into nested frames.
const maxFrameDepth = 8

// at is one document of a tab: its page (frame "") or one of its frames,
// by Chrome's frame id.
type at struct {
	tab   int
	frame string
}

// params are a command's parameters for the document in.
func (in at) params(conv string) map[string]any {
	p := map[string]any{"conv": conv, "tab": in.tab}
	if in.frame != "" {
		p["frame"] = in.frame
	}
	return p
}

// framing is what an observation learned of a tab's frames.
type framing struct {
	refs map[string]string // ref → the frame it was read in; a ref of the page is not in it
	urls map[string]string // frame → its document's address when it was read
	nos  map[string]int    // frame → its number in the observation (1, 2, …)
}

// newFraming starts a framing with the frame numbers nos (a copy), or
// none.
func newFraming(nos map[string]int) framing {
	fr := framing{refs: map[string]string{}, urls: map[string]string{}, nos: maps.Clone(nos)}
	if fr.nos == nil {
		fr.nos = map[string]int{}
	}
	return fr
}

// add records that sub was read in frame.
func (fr framing) add(frame string, sub *readAnswer) {
	fr.urls[frame] = sub.URL
	for ref := range sub.Infos {
		fr.refs[ref] = frame
	}
}

// frameLost turns the extension's frame_gone into the contract's code.
func frameLost(err error) error {
	if drivers.CodeOf(err) != frameGone {
		return err
	}
	return fail(drivers.CodeTargetGone, err, "The frame that element was read in is gone: it closed or its page went elsewhere. Observe again.")
}

// frameOfRef is the frame ref was read in by the tab's latest
// observation; "" for the page.
func (ts *Tabs) frameOfRef(tab int, ref string) string {
	return ts.seenOf(tab).frames.refs[ref]
}

// readWithFrames reads the document in and, when it is the tab's page, its
// frames: those a view or full read showed, or every one for a find. fr
// learns each framed ref's frame.
func (ts *Tabs) readWithFrames(ctx context.Context, in at, args readArgs, fr framing) (*reading, error) {
	r, err := ts.readAgain(ctx, in, args)
	if err != nil {
		return nil, err
	}
	switch {
	case in.frame != "":
		fr.add(in.frame, r.readAnswer)
	case args.Find != nil:
		if r.frames > 0 {
			ts.findInFrames(ctx, in.tab, r.readAnswer, args, fr)
		}
	default:
		ts.withFrames(r, fr)
	}
	return r, nil
}

// withFrames puts the read of each frame the page's read showed (read in
// the same call, in its own document) under its iframe's line. A frame
// that did not answer is left out, as the Playwright driver leaves it.
func (ts *Tabs) withFrames(r *reading, fr framing) {
	ans := r.readAnswer
	if len(ans.Frames) != len(r.held) || len(r.held) != len(r.each) {
		if len(ans.Frames) > 0 {
			ts.debug("frames not read", "slots", len(ans.Frames), "held", len(r.held), "read", len(r.each))
		}
		return
	}
	for i, slot := range ans.Frames {
		id, e := r.held[i], r.each[i]
		if id == "" || fr.nos[id] != 0 {
			continue
		}
		fr.nos[id] = len(fr.nos) + 1
		if e == nil || e.Error != "" {
			continue
		}
		var v struct {
			Text string `json:"t"`
		}
		if json.Unmarshal(e.Value, &v) != nil {
			continue
		}
		sub, err := ts.answer(v.Text)
		if err != nil || sub.Tree == "" {
			continue
		}
		ans.Nest(slot.Ref, sub)
		fr.add(id, sub)
	}
}

// findInFrames runs the find in every frame of the tab and adds what
// matched there after the page's matches, one heading per frame.
func (ts *Tabs) findInFrames(ctx context.Context, tab int, ans *readAnswer, args readArgs, fr framing) {
	list, err := ts.frameList(ctx, tab)
	if err != nil {
		ts.debug("frames not searched", "err", err)
		return
	}
	for _, f := range list {
		fr.nos[f.ID] = len(fr.nos) + 1
		sub, err := ts.read(ctx, at{tab, f.ID}, args)
		if err != nil || len(sub.Infos) == 0 {
			continue
		}
		ans.AddFound(sub.readAnswer, fr.nos[f.ID], f.URL)
		fr.add(f.ID, sub.readAnswer)
	}
}

// frameInfo is one frame of a tab, as the extension lists them.
type frameInfo struct {
	ID     string `json:"id"`
	Parent string `json:"parent"` // "" for the page
	URL    string `json:"url"`
}

// frameList is every frame of the tab, nested ones too.
func (ts *Tabs) frameList(ctx context.Context, tab int) ([]frameInfo, error) {
	var ans struct {
		Frames []frameInfo `json:"frames"`
	}
	err := ts.d.call(ctx, "frames", at{tab: tab}.params(ts.conv), &ans)
	return ans.Frames, err
}

// frameHeld says which frame the element expr names in the document in
// holds: a frame id, or "" when it holds none.
func (ts *Tabs) frameHeld(ctx context.Context, in at, expr string) (string, error) {
	p := in.params(ts.conv)
	p["held"] = "[" + expr + "]"
	var ans struct {
		IDs []string `json:"ids"`
	}
	if err := ts.d.call(ctx, "frames", p, &ans); err != nil {
		return "", frameLost(err)
	}
	if len(ans.IDs) != 1 {
		return "", notAnswering(nil)
	}
	return ans.IDs[0], nil
}

// owned is what onOwner learns of a frame besides fn's value.
type owned struct {
	Parent string `json:"parent"` // "" for the page
	Own    bool   `json:"own"`    // the frame runs in a process of its own
}

// onOwner calls fn, a function's source, on the element that holds the
// frame in, with args, in its parent's document, and decodes its value
// into out.
func (ts *Tabs) onOwner(ctx context.Context, in at, fn string, args []any, input bool, out any) (owned, error) {
	p := in.params(ts.conv)
	p["fn"], p["args"], p["input"] = fn, args, input
	var ans struct {
		owned
		Value json.RawMessage `json:"value"`
	}
	if err := ts.d.call(ctx, "owner", p, &ans); err != nil {
		return owned{}, frameLost(err)
	}
	return ans.owned, json.Unmarshal(ans.Value, out)
}

// ownerPoint brings a point of the frame's viewport (x, y) into its
// parent's view, scrolling the frame's element into view first and the
// parent after when the point is still out of it, and answers the point
// in the parent's viewport and whether a pointer there hits the frame.
const ownerPoint = `function (x, y) {
  const at = () => {
    const r = this.getBoundingClientRect(), cs = getComputedStyle(this);
    return {x: r.left + this.clientLeft + parseFloat(cs.paddingLeft) + x, y: r.top + this.clientTop + parseFloat(cs.paddingTop) + y};
  };
  const out = (q) => q.x < 0 || q.y < 0 || q.x >= innerWidth || q.y >= innerHeight;
  let q = at();
  if (out(q)) { this.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'}); q = at(); }
  if (out(q)) { scrollBy({left: q.x - innerWidth / 2, top: q.y - innerHeight / 2, behavior: 'instant'}); q = at(); }
  let hit = document.elementFromPoint(q.x, q.y);
  while (hit && hit.shadowRoot) { const inner = hit.shadowRoot.elementFromPoint(q.x, q.y); if (!inner || inner === hit) break; hit = inner; }
  return {x: q.x, y: q.y, on: hit === this};
}`

// inPage checks p, a point in the viewport of in's frame, frame by frame
// up to the page: each frame's element is brought into its parent's view,
// and p.On ends false when a frame's element is not what a pointer there
// hits (something covers it). It returns where a pointer event for p
// goes: the nearest frame up that runs in a process of its own, or the
// page, with p in that one's viewport. Chrome then need not find the
// frame under the point itself, which in a background tab it may not yet
// know.
func (ts *Tabs) inPage(ctx context.Context, in at, p *point) (at, error) {
	via, x, y := at{tab: in.tab}, p.X, p.Y
	for f := in.frame; f != ""; {
		var q point
		o, err := ts.onOwner(ctx, at{in.tab, f}, ownerPoint, []any{p.X, p.Y}, false, &q)
		if err != nil {
			return via, err
		}
		if o.Own && via.frame == "" {
			via.frame, x, y = f, p.X, p.Y
		}
		p.X, p.Y, p.On = q.X, q.Y, p.On && q.On
		f = o.Parent
	}
	if via.frame != "" {
		p.X, p.Y = x, y
	}
	return via, nil
}

// deepActive names the focused element of a document, through open
// shadow roots.
const deepActive = `(() => { let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement; return el; })()`

// followFocus follows the focus from st, the page's focus, into the
// frame that holds it, and that frame's, and so on: it returns the
// document where typed text would land and its focus. A focus in a frame
// buddi cannot reach stays marked Owner, which no text passes.
func (ts *Tabs) followFocus(ctx context.Context, tab int, st focusAnswer) (at, focusAnswer, error) {
	in := at{tab: tab}
	for depth := 0; st.Owner && depth < maxFrameDepth; depth++ {
		id, err := ts.frameHeld(ctx, in, deepActive)
		if err != nil || id == "" {
			return in, st, err
		}
		in.frame, st = id, focusAnswer{}
		if _, err := ts.probeIn(ctx, in, "focus", false, &st); err != nil {
			return in, st, err
		}
	}
	return in, st, nil
}

func (ts *Tabs) debug(msg string, args ...any) {
	if l := ts.d.cfg.Logger; l != nil {
		l.Debug(msg, args...)
	}
}

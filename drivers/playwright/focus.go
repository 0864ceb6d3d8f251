package playwright

import (
	"context"
	"time"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/messages"
)

// focusState is what the engine says of one frame's focus (drivers/walker/js/input.js).
type focusState struct {
	Has    bool      `json:"has"`    // the document holds focus, itself or in a frame within
	Owner  bool      `json:"owner"`  // the focus is in a frame within
	Edit   bool      `json:"edit"`   // the focused element takes text
	Unsure bool      `json:"unsure"` // the focused element may hide a closed shadow root
	Info   *elemInfo `json:"info"`   // the focused element; nil for none
	Error  string    `json:"error"`  // "stale": focusref found no element
	Nav    string    `json:"nav"`    // the document's navigation mark as it was read
}

// errBlindField refuses text for a field buddi cannot see.
func errBlindField() error {
	return fail(drivers.CodeNotAllowed, nil, "buddi cannot see what has focus (a closed shadow root or a frame it cannot read), so it types nothing there; click an ordinary field first, or ask the owner.")
}

// focusSettle bounds, on an idle machine (underLoad), the wait for a tab's
// frames to agree on where the focus is.
const focusSettle = time.Second

// focused finds where typed text would land in the tab: the one frame that
// holds focus without passing it on to a frame within, and its focused
// element, through open shadow roots. The frames must agree (settledFocus);
// if they do not within focusSettle, the answer is unsure.
func (t *tab) focused(ctx context.Context) (*focusState, error) {
	_, st, err := t.settledFocus(ctx, nil)
	return st, err
}

// settledFocus reads the focus of the tab's frames until they agree on
// one frame holding it, and that frame is want when want is given; after
// focusSettle it answers unsure, with a nil frame.
//
// A focus that moves into or out of a frame of another process reaches
// each process in its own time: the clicked frame has it at once, the
// browser (which routes a key to the focused frame) and the other frames
// learn of it later. A key sent in between goes where the focus was, not
// where the check looked. The browser tells the other frames only once it
// has moved the focus itself, so when every frame agrees, the key goes
// where they say.
func (t *tab) settledFocus(ctx context.Context, want pw.Frame) (pw.Frame, *focusState, error) {
	deadline := time.Now().Add(underLoad(focusSettle))
	for {
		f, st, err := t.readFocus(ctx)
		if err != nil {
			return nil, nil, err
		}
		if f != nil && (want == nil || f == want) {
			return f, st, nil
		}
		if time.Now().After(deadline) {
			return nil, &focusState{Unsure: true}, nil
		}
		select {
		case <-ctx.Done():
			return nil, nil, abandoned(ctx)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// readFocus reads every frame's focus once and answers the frame holding
// it, with its state, when the frames agree: exactly one frame holds the
// focus without passing it on, each of its ancestors passes it on to the
// frame on the way down, and no other frame claims it. A nil frame is
// frames that do not agree (yet).
func (t *tab) readFocus(ctx context.Context) (pw.Frame, *focusState, error) {
	states, err := t.frameFocus(ctx)
	if err != nil {
		return nil, nil, err
	}
	var leaf pw.Frame
	for f, st := range states {
		if st.Has && !st.Owner {
			if leaf != nil {
				return nil, nil, nil // two frames each say they hold it
			}
			leaf = f
		}
	}
	if leaf == nil || !t.passedDown(ctx, states, leaf) {
		return nil, nil, nil
	}
	return leaf, states[leaf], nil
}

// frameFocus reads the focus of each frame that answers; the main frame
// must.
func (t *tab) frameFocus(ctx context.Context) (map[pw.Frame]*focusState, error) {
	main := t.page.MainFrame()
	states := map[pw.Frame]*focusState{}
	for _, f := range t.page.Frames() {
		if f.IsDetached() {
			continue
		}
		var st focusState
		if err := t.probe(ctx, f, "focus", &st); err != nil {
			if f == main {
				return nil, t.failed(err, notAnswering)
			}
			continue // a frame that went away meanwhile
		}
		states[f] = &st
	}
	return states, nil
}

// passedDown reports whether the focus reaches leaf from the main frame:
// each ancestor of leaf has focused the frame element on the way down,
// and no frame off that way says it holds the focus.
func (t *tab) passedDown(ctx context.Context, states map[pw.Frame]*focusState, leaf pw.Frame) bool {
	way := map[pw.Frame]bool{leaf: true}
	for f := leaf; f != t.page.MainFrame(); {
		parent := f.ParentFrame()
		st := states[parent]
		if parent == nil || st == nil || !st.Has || !st.Owner || !focusesFrame(ctx, f) {
			return false
		}
		way[parent] = true
		f = parent
	}
	for f, st := range states {
		if st.Has && !way[f] {
			return false
		}
	}
	return true
}

// oneOrigin reports whether every frame of the tab is of the main frame's
// origin (or about:blank or about:srcdoc, which are their parent's): one
// process holds them all, and the focus moves among them at once.
func (t *tab) oneOrigin() bool {
	frames := t.page.Frames()
	if len(frames) == 1 {
		return true
	}
	main := messages.Origin(t.page.MainFrame().URL())
	for _, f := range frames {
		u := f.URL()
		if u != "about:blank" && u != "about:srcdoc" && (main == "" || messages.Origin(u) != main) {
			return false
		}
	}
	return true
}

// focusesFrame reports whether the document holding f's frame element has
// that element focused, through open shadow roots.
func focusesFrame(ctx context.Context, f pw.Frame) bool {
	yes, err := call(ctx, func() (bool, error) {
		el, err := f.FrameElement()
		if err != nil {
			return false, err
		}
		defer func() { _ = el.Dispose() }()
		v, err := el.Evaluate(`el => {
  let a = el.ownerDocument.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a === el;
}`)
		b, _ := v.(bool)
		return b, err
	})
	return err == nil && yes
}

// checkText decides whether a key that types text may go where st says it
// lands: nowhere (nothing focused) or an element that is not a field is
// fine, a field passes CheckField, and an unsure answer is refused.
func (ts *Tabs) checkText(st *focusState, key string) error {
	switch {
	case st.Unsure:
		return errBlindField()
	case st.Info == nil:
		return nil
	}
	return ts.checkField(fieldOf(st.Info), key)
}

// focusRef focuses ref in frame f and says where text would land then.
func focusRef(ctx context.Context, f pw.Frame, ref string) (*focusState, error) {
	var st focusState
	if err := probe(ctx, f, "focusref "+ref, &st); err != nil {
		return nil, err
	}
	if st.Error != "" {
		return nil, staleRef(ref, "is no longer on the page")
	}
	return &st, nil
}

// fillRef replaces the text of the resolved field in one engine call that
// first checks the field is still the one CheckField passed (and, for a
// secret, that its document is of one of origins).
func (r *resolved) fillRef(ctx context.Context, value string, origins []string) (*walker.FillAnswer, error) {
	body, err := walker.FillBody(r.ref, value, r.info, origins)
	if r.checked {
		body, err = walker.CheckedFillBody(r.ref, value, &r.info, origins)
	}
	if err != nil {
		return nil, err
	}
	var ans walker.FillAnswer
	if err := probe(ctx, r.f, body, &ans); err != nil {
		return nil, err
	}
	return &ans, nil
}

package playwright

import (
	"context"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
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

// focused finds where typed text would land in the tab: the one frame that
// holds focus without passing it on to a frame within, and its focused
// element, through open shadow roots. Zero or several such frames leave
// the answer unsure.
func (t *tab) focused(ctx context.Context) (*focusState, error) {
	var found *focusState
	for _, f := range t.page.Frames() {
		if f.IsDetached() {
			continue
		}
		var st focusState
		if err := t.probe(ctx, f, "focus", &st); err != nil {
			if f == t.page.MainFrame() {
				return nil, t.failed(err, notAnswering)
			}
			continue // a frame that went away meanwhile
		}
		if !st.Has || st.Owner {
			continue
		}
		if found != nil {
			return &focusState{Unsure: true}, nil
		}
		found = &st
	}
	if found == nil {
		return &focusState{Unsure: true}, nil
	}
	return found, nil
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

package playwright

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
)

// dom reads the page (or one element of it) as sanitised HTML, in the
// isolated world (walker.DOMOp), capped.
func (t *tab) dom(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	var got walker.DOMAnswer
	if err := t.probe(ctx, t.page.MainFrame(), walker.DOMOp(a), &got); err != nil {
		return nil, t.failed(err, notAnswering)
	}
	text, err := got.Read(a)
	if err != nil {
		return nil, err
	}
	out := t.outcome(ctx, drivers.Done, false)
	out.Text = text
	return out, nil
}

// consoleText returns the console errors the tab collected since it opened.
func (t *tab) consoleText(a *drivers.Action) *drivers.Outcome {
	limit := a.MaxChars
	if limit <= 0 {
		limit = domChars
	}
	text, _ := t.console.text(limit)
	if text == "" {
		text = "No console errors since the tab opened."
	}
	return &drivers.Outcome{Result: drivers.Done, URL: t.page.URL(), Text: text}
}

func (t *tab) screenshotOutcome(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	shot, err := t.screenshot(ctx, a.FullRes)
	if err != nil {
		return nil, t.failed(err, notAnswering)
	}
	out := t.outcome(ctx, drivers.Done, false)
	out.Image, out.Width, out.Height = shot.jpeg, shot.width, shot.height
	return out, nil
}

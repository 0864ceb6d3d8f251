package playwright

import (
	"context"
	"strconv"

	"github.com/buddi-dev/buddi/drivers"
)

// dom returns the page's visible text (innerText: no scripts, no styles, no
// field values, so no passwords), read in the isolated world and capped.
func (t *tab) dom(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	limit := a.MaxChars
	if limit <= 0 {
		limit = domChars
	}
	var got struct {
		Text string `json:"text"`
		Cut  bool   `json:"cut"`
	}
	if err := probe(ctx, t.page.MainFrame(), "text "+strconv.Itoa(limit), &got); err != nil {
		return nil, t.failed(err, notAnswering)
	}
	text, cutOff := cut(got.Text, limit)
	if got.Cut || cutOff {
		text += "\n(cut at " + strconv.Itoa(limit) + " characters)"
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

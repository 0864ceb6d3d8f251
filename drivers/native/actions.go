package native

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// acting is the computer as the dispatcher drives it: Use my apps clicks,
// fills, presses, navigates, opens apps and takes screenshots, and refuses
// the rest as unsupported.
type acting struct{ *Tabs }

var _ drivers.Actions = acting{}

func (t acting) Click(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.click(ctx, a)
}

// Fill types text; a secret_fill is not something Use my apps does.
func (t acting) Fill(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if a.Kind == drivers.SecretFill {
		return cannot(a)
	}
	return t.fill(ctx, a)
}

func (t acting) Press(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.press(ctx, a)
}

func (t acting) Navigate(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return t.navigate(ctx, a)
}

func (t acting) Screenshot(ctx context.Context, _ *drivers.Action) (*drivers.Outcome, error) {
	return t.screenshot(ctx)
}

func (acting) Select(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return hasNo(a)
}

func (acting) Tab(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) { return hasNo(a) }

func (acting) Hover(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) { return cannot(a) }

func (acting) Scroll(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return cannot(a)
}

func (acting) Submit(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return cannot(a)
}

func (acting) History(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return cannot(a)
}

func (acting) WaitFor(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return cannot(a)
}

func (acting) DOM(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) { return cannot(a) }

func (acting) Console(_ context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	return cannot(a)
}

// hasNo refuses an action whose browser idea (a list's options, tabs) a
// window shows as things to click.
func hasNo(a *drivers.Action) (*drivers.Outcome, error) {
	return nil, drivers.Errorf(messages.CodeUnsupported, nil, "Use my apps has no %s: click the visible option or tab instead.", a.Kind)
}

// cannot refuses an action Use my apps does not perform.
func cannot(a *drivers.Action) (*drivers.Outcome, error) {
	return nil, drivers.Errorf(messages.CodeUnsupported, nil, "Use my apps cannot %s; observe, click, fill, press, open or navigate instead.", a.Kind)
}

package playwright

import (
	"context"
	"errors"
	"strings"

	pw "github.com/mxschmitt/playwright-go"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/drivers/walker"
	"github.com/buddi-dev/buddi/messages"
)

// click clicks the element and reports what the click did to the tab.
// Playwright's click returns once a navigation it requested in the main
// frame has committed or failed, and the events of a navigation or a
// window the click opened reach the tab before it returns: a click that
// moved nothing by then stayed on the page, and says so at once rather
// than wait for a navigation that may start later (a page's timer).
func (r *resolved) click(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	before, _ := r.t.nav.now()
	var early <-chan string
	if r.f == r.t.page.MainFrame() {
		early = r.t.titleAfterClick()
	}
	err := do(ctx, func() error { return r.loc.Click(pw.LocatorClickOptions{Timeout: ms(ctx, underLoad(inputTimeout))}) })
	if r.rechecked(err) {
		return nil, errRecheck
	}
	if err != nil {
		return nil, r.inputFailed(err, "click", strings.Contains(err.Error(), "performing "))
	}
	out, err := r.t.settle(ctx, before, 0, a.TimeoutOr(navTimeout, 0), early)
	if err == nil && out != nil && out.Result == drivers.SamePage {
		r.t.owner.clicked = r.f
	}
	return out, err
}

// fill replaces the field's text. CheckField sees the field's own
// attributes first; then one engine call focuses it, checks that it is
// still the focused field with those attributes (a page may turn a field
// into a password field when it gets focus), and inserts the text the way
// typing does (input events fire; the clipboard is never used).
//
// A secret_fill types one of the owner's own secrets: the credential rules
// that refuse an agent's text do not apply (a password field of the
// secret's own origin is where it belongs), and the engine refuses a field
// whose document is of an origin the secret is not for.
func (r *resolved) fill(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	origins := walker.SecretOrigins(a)
	check := func(f Field) error {
		if origins != nil {
			return nil
		}
		return r.t.owner.checkField(f, a.Value)
	}
	if err := check(fieldOf(&r.info)); err != nil {
		return nil, err
	}
	ans, err := r.fillRef(ctx, a.Value, origins)
	if err != nil {
		// The engine's error could quote the value: keep it out of the cause.
		return nil, r.inputFailed(errors.New("fill failed"), "fill", isClosed(err))
	}
	switch ans.Error {
	case "":
		if r.f != r.t.page.MainFrame() {
			return r.t.outcome(ctx, drivers.Done, false), nil
		}
		// The page's own field: the answer carries its title, read in the
		// page, in the same call, after the input.
		return &drivers.Outcome{Result: drivers.Done, URL: r.t.page.URL(), Title: messages.Clip(ans.Title, drivers.MaxTitle)}, nil
	case "recheck":
		return nil, errRecheck
	case "focus", "changed":
		if ans.Info != nil {
			if err := check(fieldOf(ans.Info)); err != nil {
				return nil, err
			}
		}
		return nil, fail(drivers.CodeNotAllowed, nil, "The field "+r.ref+" changed or handed its focus elsewhere as it was focused, so nothing was typed; observe again.")
	case "stale":
		return nil, staleRef(r.ref, "is no longer on the page")
	}
	if err := ans.Refused(r.ref); err != nil {
		return nil, err
	}
	return nil, fail(drivers.CodeTargetMiss, nil, "The element "+r.ref+" did not take the text; observe again.")
}

// selectOptions picks options by label or value.
func (r *resolved) selectOptions(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	if len(a.Values) == 0 {
		return nil, badInput("Select needs at least one option label or value.")
	}
	vals := append([]string(nil), a.Values...)
	_, err := call(ctx, func() ([]string, error) {
		return r.loc.SelectOption(pw.SelectOptionValues{ValuesOrLabels: &vals}, pw.LocatorSelectOptionOptions{Timeout: ms(ctx, underLoad(inputTimeout))})
	})
	if err != nil {
		return nil, r.inputFailed(err, "select", isClosed(err))
	}
	return r.t.outcome(ctx, drivers.Done, false), nil
}

func (r *resolved) hover(ctx context.Context) (*drivers.Outcome, error) {
	err := do(ctx, func() error { return r.loc.Hover(pw.LocatorHoverOptions{Timeout: ms(ctx, underLoad(inputTimeout))}) })
	if err != nil {
		return nil, r.inputFailed(err, "hover", strings.Contains(err.Error(), "performing "))
	}
	return r.t.outcome(ctx, drivers.Done, false), nil
}

// submitJS submits the element's form (or the form itself) the way a person
// does, validation and submit events included; a submit button is the
// submitter.
const submitJS = `(el) => {
  const form = el instanceof HTMLFormElement ? el : el.form || el.closest('form');
  if (!form) return false;
  const submitter = el !== form && (el.type === 'submit' || el.type === 'image') ? el : undefined;
  form.requestSubmit(submitter);
  return true;
}`

func (r *resolved) submit(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	before, _ := r.t.nav.now()
	ok, err := call(ctx, func() (any, error) {
		return r.loc.Evaluate(submitJS, nil, pw.LocatorEvaluateOptions{Timeout: ms(ctx, underLoad(inputTimeout))})
	})
	if err != nil {
		return nil, r.inputFailed(err, "submit", !isTimeout(err))
	}
	if ok != true {
		return nil, badInput("The element " + r.ref + " is not in a form; click its button instead.")
	}
	out, err := r.t.settle(ctx, before, navStartWindow, a.TimeoutOr(navTimeout, 0), nil)
	if out != nil {
		out.Changed = true
	}
	return out, err
}

// inputFailed reports a failed input: uncertain when it may have reached
// the page, else a code that says nothing happened.
func (r *resolved) inputFailed(err error, verb string, dispatched bool) error {
	var de *drivers.Error
	if errors.As(err, &de) {
		return de
	}
	if gone := r.t.alive(); gone != nil {
		return gone
	}
	if dispatched {
		return fail(drivers.CodePartial, err, "The "+verb+" on "+r.ref+" may have half happened: observe before doing anything else.")
	}
	return fail(drivers.CodeTargetMiss, err, "The element "+r.ref+" did not take the "+verb+": it is hidden, disabled, covered or not the right kind of element.")
}

// checkField runs the CheckField hook.
func (ts *Tabs) checkField(f Field, value string) error {
	if ts.d.cfg.CheckField == nil {
		return nil
	}
	if err := ts.d.cfg.CheckField(f, value); err != nil {
		return refusal(err)
	}
	return nil
}

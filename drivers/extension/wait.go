package extension

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/buddi-dev/buddi/drivers"
)

// waitFor polls the active tab for the condition, up to its timeout
// (5 s by default, 15 s at most).
func (ts *Tabs) waitFor(ctx context.Context, a *drivers.Action) (*drivers.Outcome, error) {
	w := a.Wait
	if w == nil {
		return nil, badInput("wait_for needs one condition: selector, text, url, load or a target.")
	}
	d := a.TimeoutOr(waitDefault, waitMax)
	tab := ts.current()
	check, err := ts.condition(tab, w)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(d)
	for {
		ok, err := check(ctx)
		if err != nil {
			return nil, err
		}
		if ok {
			st, err := ts.info(ctx, tab)
			if err != nil {
				return nil, err
			}
			return &drivers.Outcome{Result: drivers.Done, URL: st.URL, Title: st.Title}, nil
		}
		if time.Now().After(deadline) {
			return nil, fail(drivers.CodeTimeout, nil, "The condition did not hold within "+d.String()+"; observe to see where the page is.")
		}
		if err := sleep(ctx, 2*pollEvery); err != nil {
			return nil, err
		}
	}
}

// condition returns the check one poll runs.
func (ts *Tabs) condition(tab int, w *drivers.WaitCond) (func(context.Context) (bool, error), error) {
	evalBool := func(expr string) func(context.Context) (bool, error) {
		return func(ctx context.Context) (bool, error) {
			var ok any
			if err := ts.eval(ctx, tab, expr, false, &ok); err != nil {
				return false, err
			}
			if ok == "bad" {
				return false, badInput("wait_for's selector is not a CSS selector the page accepts.")
			}
			return ok == true, nil
		}
	}
	switch {
	case w.Selector != "":
		q, _ := json.Marshal(w.Selector)
		return evalBool(`(() => { let el; try { el = document.querySelector(` + string(q) + `); } catch { return 'bad'; }
  if (!el) return false; const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; })()`), nil
	case w.Text != "":
		q, _ := json.Marshal(w.Text)
		return evalBool(`!!document.body && document.body.innerText.includes(` + string(q) + `)`), nil
	case w.URL != "":
		return func(ctx context.Context) (bool, error) {
			st, err := ts.info(ctx, tab)
			return err == nil && strings.Contains(st.URL, w.URL), err
		}, nil
	case w.Load:
		return func(ctx context.Context) (bool, error) {
			st, err := ts.info(ctx, tab)
			return err == nil && st.Status == "complete", err
		}, nil
	case w.Target != nil:
		return func(ctx context.Context) (bool, error) {
			_, err := ts.resolve(ctx, w.Target)
			if err != nil && drivers.CodeOf(err) == drivers.CodeTargetGone && strings.Contains(err.Error(), "hidden") {
				return false, nil
			}
			return err == nil, err
		}, nil
	}
	return nil, badInput("wait_for needs one condition: selector, text, url, load or a target.")
}

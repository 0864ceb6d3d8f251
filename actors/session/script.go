package session

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// runScript runs a batch of navigation-phase steps, each through the same
// checks as a single call: a click needs a ref of the latest observation and
// the page must not have changed since. It stops at the first failure.
func runScript(c context.Context, tabs drivers.Tabs, in *messages.ActInput, refs map[string]drivers.Target, fresh bool) ([]map[string]any, error) {
	var out []map[string]any
	for i, s := range in.Steps {
		var t *drivers.Target
		if s.Action == "click" {
			tt, ok := refs[s.Target.Ref]
			if !ok || !fresh {
				return out, drivers.Errorf(drivers.CodeTargetGone, nil,
					"script step %d: %s is not an element of a fresh observation; observe, then run the rest", i+1, s.Target.Ref)
			}
			t = &tt
		}
		res, err := tabs.Do(c, toAction(s, t))
		if err != nil {
			return out, err
		}
		if res.Changed || s.Action == "navigate" {
			fresh = false
		}
		out = append(out, stepResult(i+1, s.Action, res))
	}
	return out, nil
}

func stepResult(n int, action string, o *drivers.Outcome) map[string]any {
	r := map[string]any{"step": n, "action": action, "outcome": o.Result}
	if o.URL != "" {
		r["url"] = o.URL
	}
	if o.Text != "" {
		r["text"] = o.Text
	}
	if len(o.Image) > 0 {
		r["screenshotBytes"] = len(o.Image)
	}
	return r
}

package session

import (
	"context"

	"github.com/buddi-dev/buddi/drivers"
	"github.com/buddi-dev/buddi/messages"
)

// runScript runs a batch of navigation-phase steps, each through the same
// checks as a single call: a step that puts input on the page needs a
// target of the latest observation, and the page must not have changed
// since. It stops at the first failure, which it returns beside every step
// that ran before it and what each did.
func runScript(c context.Context, tabs drivers.Tabs, in *messages.ActInput, refs elements, fresh bool) ([]messages.ScriptStep, error) {
	var out []messages.ScriptStep
	for i, s := range in.Steps {
		var t *drivers.Target
		if messages.Spec(s.Action).Mutating {
			tt, ok := refs.target(s.Target.Ref)
			if !ok || !fresh {
				return out, drivers.Errorf(drivers.CodeTargetGone, nil,
					"script step %d: %s is not an element of a fresh observation (an earlier step changed the page); observe, then run the rest", i+1, s.Target.Describe())
			}
			t = tt
		}
		res, err := tabs.Do(c, toAction(s, t))
		if err != nil {
			return out, err
		}
		if res.Changed || messages.Spec(s.Action).ChangesPage {
			fresh = false
		}
		out = append(out, stepResult(i+1, s.Action, res))
	}
	return out, nil
}

func stepResult(n int, action string, o *drivers.Outcome) messages.ScriptStep {
	return messages.ScriptStep{Step: n, Action: action, Outcome: o.Result, URL: o.URL,
		ScreenshotBytes: len(o.Image), Read: o.Text, Title: o.Title}
}
